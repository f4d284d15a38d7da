//! Engine specifications (`--engine name=... cmd=... dir=... option.NAME=VALUE
//! tc=...`) and the `key=value` lists that other flags (`--sprt`,
//! `--adjudicate-*`) share.
//!
//! Each shell word is one `key=value` pair, split at its first `=`, so shell
//! quoting does the work: `cmd="./scan hub"` reaches us as the single word
//! `cmd=./scan hub`. The command itself is split into program and arguments
//! with POSIX shell rules (the `shlex` crate), so a path with blanks can be
//! quoted inside it.

use super::tc::TimeControl;
use std::path::{Path, PathBuf};

/// Split `key=value` words into pairs; a word without `=` is an error.
pub fn parse_pairs(words: &[String], flag: &str) -> Result<Vec<(String, String)>, String> {
    words
        .iter()
        .map(|w| match w.split_once('=') {
            Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_string(), v.to_string())),
            _ => Err(format!(
                "{flag}: expected key=value, not '{w}' (quote values with blanks: key=\"a b\")"
            )),
        })
        .collect()
}

/// Read a number from a `key=value` list, checking its range.
pub fn parse_number(key: &str, value: &str, flag: &str, min: f64, max: f64) -> Result<f64, String> {
    value
        .trim()
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite() && (min..=max).contains(v))
        .ok_or_else(|| format!("{flag}: {key} must be a number from {min} to {max}, not '{value}'"))
}

/// Read a whole number from a `key=value` list, checking its range: a count
/// such as `moves=2.5` is an error, not silently 2.
pub fn parse_count(key: &str, value: &str, flag: &str, min: u32, max: u32) -> Result<u32, String> {
    value
        .trim()
        .parse::<u32>()
        .ok()
        .filter(|v| (min..=max).contains(v))
        .ok_or_else(|| {
            format!("{flag}: {key} must be a whole number from {min} to {max}, not '{value}'")
        })
}

/// One engine of the match, as given on the command line.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    /// The name given with `name=` (otherwise the engine's `id name`).
    pub name: Option<String>,
    /// The command as written.
    pub cmd: String,
    pub program: String,
    pub args: Vec<String>,
    /// The working directory (default: the runner's).
    pub dir: Option<PathBuf>,
    /// `set-param` pairs sent before `init`, in the order given.
    pub options: Vec<(String, String)>,
    /// A time control of its own (time odds), overriding `--tc`.
    pub tc: Option<TimeControl>,
}

impl EngineSpec {
    /// Parse the words of one `--engine` flag.
    pub fn parse(words: &[String]) -> Result<EngineSpec, String> {
        let mut spec = EngineSpec {
            name: None,
            cmd: String::new(),
            program: String::new(),
            args: Vec::new(),
            dir: None,
            options: Vec::new(),
            tc: None,
        };
        for (key, value) in parse_pairs(words, "--engine")? {
            match key.as_str() {
                "name" => {
                    if value.trim().is_empty() {
                        return Err("--engine: name= must not be empty".into());
                    }
                    spec.name = Some(value.trim().to_string());
                }
                "cmd" => spec.cmd = value,
                "dir" => spec.dir = Some(PathBuf::from(value)),
                "tc" => spec.tc = Some(value.parse()?),
                k => match k.strip_prefix("option.") {
                    Some(opt) if !opt.is_empty() => spec.options.push((opt.to_string(), value)),
                    _ => {
                        return Err(format!(
                            "--engine: unknown key '{k}' (expected name=, cmd=, dir=, \
                             option.NAME=, tc=)"
                        ));
                    }
                },
            }
        }
        if spec.cmd.trim().is_empty() {
            return Err(format!(
                "--engine {}: cmd= is required (for Tiao: cmd=\"path/to/tiao hub\")",
                words.join(" ")
            ));
        }
        let mut parts = shlex::split(&spec.cmd)
            .filter(|p| !p.is_empty())
            .ok_or_else(|| {
                format!(
                    "--engine: cannot split cmd '{}' (unbalanced quotes?)",
                    spec.cmd
                )
            })?
            .into_iter();
        spec.program = parts.next().unwrap_or_default();
        spec.args = parts.collect();
        Ok(spec)
    }

    /// A name for messages before the engine has told its own.
    pub fn label(&self) -> String {
        self.name.clone().unwrap_or_else(|| {
            Path::new(&self.program)
                .file_name()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| self.program.clone())
        })
    }

    /// The program to start. A bare name is looked up in `PATH`; a relative
    /// path is taken in `dir` when it exists there (as Hub GUIs do), else in
    /// the runner's working directory. Returned absolute, so it does not
    /// depend on the child's working directory.
    pub fn resolve_program(&self) -> PathBuf {
        let p = Path::new(&self.program);
        if p.is_absolute() || !self.program.contains(std::path::MAIN_SEPARATOR) {
            return p.to_path_buf();
        }
        if let Some(dir) = &self.dir {
            let in_dir = dir.join(p);
            if in_dir.exists() {
                return std::path::absolute(&in_dir).unwrap_or(in_dir);
            }
        }
        std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &[&str]) -> Vec<String> {
        s.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn a_full_spec() {
        let s = EngineSpec::parse(&words(&[
            "name=scan",
            "cmd=./scan hub",
            "dir=/opt/scan",
            "option.book=false",
            "option.threads=1",
            "tc=movetime=0.5",
        ]))
        .expect("spec");
        assert_eq!(s.name.as_deref(), Some("scan"));
        assert_eq!(s.program, "./scan");
        assert_eq!(s.args, vec!["hub".to_string()]);
        assert_eq!(s.dir, Some(PathBuf::from("/opt/scan")));
        assert_eq!(
            s.options,
            vec![
                ("book".to_string(), "false".to_string()),
                ("threads".to_string(), "1".to_string())
            ]
        );
        assert_eq!(s.tc.map(|t| t.to_string()).as_deref(), Some("movetime=0.5"));
    }

    #[test]
    fn quoting_inside_the_command() {
        let s = EngineSpec::parse(&words(&["cmd='/my engines/tiao' hub"])).expect("spec");
        assert_eq!(s.program, "/my engines/tiao");
        assert_eq!(s.label(), "tiao");
    }

    #[test]
    fn mistakes_are_explained() {
        assert!(EngineSpec::parse(&words(&["name=x"])).is_err());
        assert!(EngineSpec::parse(&words(&["cmd=x", "colour=red"])).is_err());
        assert!(EngineSpec::parse(&words(&["cmd=x", "justaword"])).is_err());
        assert!(EngineSpec::parse(&words(&["cmd=x 'unbalanced"])).is_err());
        assert!(EngineSpec::parse(&words(&["cmd=x", "tc=fast"])).is_err());
    }
}
