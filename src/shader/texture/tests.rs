//! Hand-computed tests of texture sampling.
