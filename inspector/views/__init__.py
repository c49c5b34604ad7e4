"""The Qt-free view models the window reads: session, page facts, probe, search, stepper, trees."""
