"""Other engines' text (or the customer's) aligned to glyphscope's glyphs, differences explained."""
