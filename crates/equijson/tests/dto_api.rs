//! The Dto declaration and the algebra of accepted findings.
