//! DXP (DamExchange): engine-vs-engine games over TCP.

/// Arguments of `tiao dxp`.
#[derive(clap::Args, Debug, Clone)]
pub struct DxpArgs {}

/// Run `tiao dxp`.
pub fn run(_args: &DxpArgs) -> Result<(), String> {
    Err("DXP is not implemented yet".into())
}
