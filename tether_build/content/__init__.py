"""Content: load, schema-check and validate the designer's files; the model's own views."""
