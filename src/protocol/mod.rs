//! Front ends: the Hub protocol, the human text mode, (in `dxp`) the
//! DamExchange protocol, and (in `gui`) a board in the browser. They translate between their wire format and the
//! engine (`engine`), and contain no rules or search logic.

pub mod dxp;
pub mod gui;
pub mod hub;
pub mod hubline;
pub mod output;
pub mod text;
