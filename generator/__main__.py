from generator.cli import cli

cli()
