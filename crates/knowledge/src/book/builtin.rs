//! The shipped opening books, compiled into the binary: `build.rs` deflates
//! `openings/book-<variant>.txt` and this module inflates and reads one
//! when a variant's default book is asked for. So a `tiao` copied into a
//! GUI's engine folder, installed with `cargo install`, or started from
//! any directory plays from the same book as one run in the repository.
//! The `book-file` option overrides the built-in book.

use super::error::BookError;
use super::store::Book;
use tiao_draughts::board::Variant;

include!(concat!(env!("OUT_DIR"), "/embedded_books.rs"));

/// The compressed book of `variant` and its length once inflated, if one
/// is built in.
fn embedded(variant: Variant) -> Option<(&'static [u8], usize)> {
    EMBEDDED
        .iter()
        .find(|(name, _, _)| *name == variant.name())
        .map(|&(_, packed, len)| (packed, len))
}

/// Whether a book of `variant` is built in (Canadian has none).
pub fn has_builtin(variant: Variant) -> bool {
    embedded(variant).is_some()
}

/// The built-in book of `variant`, inflated and checked like a file
/// ([`Book::parse`]); `None` when the variant has none. An error can only
/// come from a broken build, but is reported as a book error all the same,
/// never a crash.
pub fn builtin(variant: Variant) -> Option<Result<Book, BookError>> {
    let (packed, len) = embedded(variant)?;
    let shown = format!("built-in {variant} book");
    let text = miniz_oxide::inflate::decompress_to_vec_with_limit(packed, len)
        .map_err(|e| format!("cannot be inflated ({:?})", e.status))
        .and_then(|bytes| String::from_utf8(bytes).map_err(|_| "is not UTF-8 text".to_string()));
    Some(match text {
        Ok(text) => Book::parse(&text, variant).map_err(|e| e.in_file(&shown)),
        Err(message) => Err(BookError::Io {
            path: shown,
            message,
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_book_in_openings_is_built_in_exactly_as_its_text() {
        let openings = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../openings");
        for variant in Variant::ALL {
            let file = openings.join(format!("book-{}.txt", variant.name()));
            let Ok(text) = std::fs::read(&file) else {
                assert!(!has_builtin(variant), "{variant}: built in but not shipped");
                continue;
            };
            let (packed, len) =
                embedded(variant).unwrap_or_else(|| panic!("{} is not built in", file.display()));
            assert!(packed.len() < text.len() / 2, "{variant}: not compressed");
            assert_eq!(len, text.len(), "{variant}");
            let inflated =
                miniz_oxide::inflate::decompress_to_vec_with_limit(packed, len).expect("inflates");
            assert!(
                inflated == text,
                "{variant}: the built-in book differs from {file:?}"
            );
        }
    }

    #[test]
    fn the_built_in_books_are_valid_books_of_their_variant() {
        for variant in Variant::ALL {
            match builtin(variant) {
                Some(book) => {
                    let book = book.unwrap_or_else(|e| panic!("{e}"));
                    assert_eq!(book.variant(), variant);
                    assert!(book.len() > 1000, "{variant}: {} positions", book.len());
                }
                None => assert_eq!(variant, Variant::Canadian),
            }
        }
    }
}
