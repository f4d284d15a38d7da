//! `tiao gui`: a board in the browser. A local web server (127.0.0.1
//! only) serves one page, embedded in the binary, that draws the board
//! and talks to Tiao over a WebSocket in JSON (docs/gui.md). Like the
//! other front ends it only translates: the rules, the notation, the
//! search and the databases are the engine's; the page draws what the
//! server says and sends what a person does.
//!
//! `messages` is the protocol, `game` one page's game and its searches,
//! `server` the HTTP and WebSocket side.

pub mod game;
pub mod messages;
pub mod server;

use std::io::Write;

/// The arguments of `tiao gui`.
#[derive(clap::Args, Debug, Clone)]
pub struct GuiArgs {
    /// Port to listen on (127.0.0.1 only); 0 picks a free one.
    #[arg(long, default_value_t = 0)]
    pub port: u16,
    /// Set an engine option for every game (as text mode's `set`:
    /// `--set egdb-pieces=5 --set egdb-dir=egdb`); may be repeated.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
}

/// Run the server until the process is ended. Prints the address on
/// stdout (`tiao gui: http://127.0.0.1:PORT/`) and opens nothing itself.
pub fn run(args: &GuiArgs) -> Result<(), String> {
    let mut settings = game::Settings::default();
    for pair in &args.set {
        let Some((name, value)) = pair.split_once('=') else {
            return Err(format!("--set takes NAME=VALUE, not '{pair}'"));
        };
        settings
            .options
            .push((name.trim().to_string(), value.trim().to_string()));
    }
    // One engine at once, so that a bad option is said now, not per page.
    settings.engine()?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server's runtime: {e}"))?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", args.port))
            .await
            .map_err(|e| format!("cannot listen on 127.0.0.1:{}: {e}", args.port))?;
        let address = listener
            .local_addr()
            .map_err(|e| format!("cannot read the address listened on: {e}"))?;
        println!("tiao gui: http://{address}/");
        // Whoever started us reads the address from a pipe: send it now.
        let _ = std::io::stdout().flush();
        server::serve(listener, settings)
            .await
            .map_err(|e| format!("the server stopped: {e}"))
    })
}
