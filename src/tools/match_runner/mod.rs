//! `tiao match`: games between Hub engines, with Elo and SPRT.

/// Arguments of `tiao match`.
#[derive(clap::Args, Debug, Clone)]
pub struct MatchArgs {}

/// Run `tiao match`.
pub fn run(_args: &MatchArgs) -> Result<(), String> {
    Err("the match runner is not implemented yet".into())
}

/// Arguments of `tiao openings`.
#[derive(clap::Args, Debug, Clone)]
pub struct OpeningsArgs {}

/// Run `tiao openings`.
pub fn run_openings(_args: &OpeningsArgs) -> Result<(), String> {
    Err("opening generation is not implemented yet".into())
}
