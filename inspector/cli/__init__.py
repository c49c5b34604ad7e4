"""The `glyphscope` command line: the parser, shared conventions and one module per command."""
