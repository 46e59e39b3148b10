"""The JSON Schemas of content, generated from the code (`tether schemas`)."""
