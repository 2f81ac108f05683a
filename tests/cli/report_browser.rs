//! The `simulate --report` page in a real headless browser (Chromium from the
//! system packages): it loads with no console error, draws its charts, and
//! renders to a screenshot. Needs Chromium, so it is ignored by a plain
//! `cargo test`; `.ci/run` runs it where `chromium` is installed:
//! `cargo test --test cli report_browser -- --ignored`.

use std::path::PathBuf;
use std::process::Command;

fn chromium() -> Option<&'static str> {
    ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|b| {
            Command::new(b)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
}

#[test]
#[ignore = "needs Chromium: cargo test --test cli report_browser -- --ignored"]
fn the_report_loads_in_a_headless_browser_without_console_errors() {
    let Some(browser) = chromium() else {
        panic!("no chromium on PATH (apt-get install chromium)");
    };
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("report-browser");
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join("report.html");
    let out = Command::new(env!("CARGO_BIN_EXE_grimoire"))
        .args([
            "simulate", "arcomage", "--games", "2000", "--seed", "1", "--report",
        ])
        .arg(&page)
        .output()
        .expect("run grimoire");
    assert!(out.status.success());
    let url = format!("file://{}", page.display());
    let flags = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        "--disable-background-networking",
        "--enable-logging=stderr",
        "--v=1",
    ];
    // The page as the browser built it: every chart is there.
    let dom = Command::new(browser)
        .args(flags)
        .arg("--dump-dom")
        .arg(&url)
        .output()
        .expect("run chromium");
    let built = String::from_utf8_lossy(&dom.stdout);
    assert!(built.matches("<svg").count() >= 4, "{built}");
    // Whatever the page logs to its console: nothing may be an error.
    let log = String::from_utf8_lossy(&dom.stderr);
    let console: Vec<&str> = log.lines().filter(|l| l.contains(":CONSOLE")).collect();
    assert!(console.is_empty(), "{console:#?}");
    // And it renders: a screenshot of real size.
    let shot = dir.join("report.png");
    let _ = std::fs::remove_file(&shot);
    let status = Command::new(browser)
        .args(flags)
        .arg("--window-size=1200,1600")
        .arg(format!("--screenshot={}", shot.display()))
        .arg(&url)
        .output()
        .expect("run chromium");
    assert!(status.status.success());
    let bytes = std::fs::metadata(&shot).map(|m| m.len()).unwrap_or(0);
    assert!(bytes > 20_000, "a screenshot of {bytes} bytes");
}
