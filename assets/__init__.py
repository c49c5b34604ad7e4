"""Package data: `demo.pdf` (read with `glyphscope.demo_pdf()`) and its generator `make_demo.py`."""
