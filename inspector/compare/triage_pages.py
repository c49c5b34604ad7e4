"""How much `triage --compare` compares: a module of its own so the triage parser reads it cheaply."""

DOCUMENT_MAX_PAGES = 10
"""Pages of a document compared for its agreement: enough to rank files, cheap enough for a batch."""
