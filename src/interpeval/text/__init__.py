"""Text utilities shared by every benchmark: sentence splitting, word tokenisation, alignment."""
