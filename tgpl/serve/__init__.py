"""`tgpl serve`: games played in the browser (docs/serve.md)."""
