//! Files named from outside (a `book-file`, an `eval-file`, a table
//! directory) are opened only if they are regular files: a named pipe would
//! block the engine until something writes to it, and a device such as
//! `/dev/zero` never ends, so either would hang the engine or exhaust its
//! memory instead of giving an error.

use std::io;
use std::path::Path;

/// `Ok` if `path` is a regular file (after following links), else the
/// error to report.
pub fn regular(path: &Path) -> io::Result<()> {
    let meta = std::fs::metadata(path)?;
    if meta.is_file() {
        Ok(())
    } else {
        Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file",
        ))
    }
}

/// The whole contents of a regular file.
pub fn read(path: &Path) -> io::Result<Vec<u8>> {
    regular(path)?;
    std::fs::read(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_regular_files_are_read() {
        assert!(read(Path::new("Cargo.toml")).is_ok());
        let e = read(Path::new("/dev/zero")).expect_err("a device");
        assert_eq!(e.to_string(), "not a regular file");
        assert!(read(Path::new("src")).is_err(), "a directory");
        assert!(read(Path::new("no/such/file")).is_err());
    }
}
