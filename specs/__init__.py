"""Built-in rule files: variants, the JSON Schema and gettext catalogues."""
