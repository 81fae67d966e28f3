"""modelscores: a static JSON API of AI model scores."""
