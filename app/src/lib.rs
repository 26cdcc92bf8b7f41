//! The referee app.
