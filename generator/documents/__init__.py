"""Stage 4 (documents): records and scores in, the published documents and files out."""
