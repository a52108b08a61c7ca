//! Hand-derived tests of the output merger's rules.
