//! Hand-derived tests of the rasterizer rules.
