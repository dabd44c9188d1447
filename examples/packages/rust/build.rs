// Runs fbec (the command of $FBEC, or `fbec` on PATH) on shop.fbe into OUT_DIR at build time.
fn main() -> std::io::Result<()> {
    fbe_build::Config::new().proto(true).compile(&["shop.fbe"])
}
