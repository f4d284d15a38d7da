//! Front ends: the Hub protocol, the human text mode, and (in `dxp`) the
//! DamExchange protocol. They translate between their wire format and the
//! engine (`engine`), and contain no rules or search logic.

pub mod dxp;
pub mod hub;
pub mod hubline;
pub mod output;
pub mod text;
