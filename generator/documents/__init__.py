"""The documents stage: records and scores in, the published documents and files out."""
