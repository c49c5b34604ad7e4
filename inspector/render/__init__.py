"""Page images: the PDFium renderer, its own process, and Pillow page images."""
