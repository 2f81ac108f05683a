//! The HTML pages in a real headless browser (Chromium from the system
//! packages): the page of one run (`simulate --report`), the comparison's
//! (`--versus-cards … --report`) and the sharded run's (`merge … --report`).
//! Each is opened from disk (`file://`) and must load with no console error
//! (a script error is one), draw its charts, have its table, sort the table
//! when a column's header is clicked, hide the rows a filter leaves out, and
//! render to a screenshot. The page's script is driven through its query
//! string (`?sort=cost` clicks the cost header's button, `?filter=gems`
//! types in the filter box), and the DOM the browser built is read back.
//!
//! Needs Chromium, so it is ignored by a plain `cargo test`; `.ci/run` runs
//! it where `chromium` is installed (installing it where it can):
//! `cargo test --test cli report_browser -- --ignored`. The screenshots are
//! left in the test target folder (`report-browser/*.png`); docs/report.png
//! and docs/report-versus.png are copies of them.

use std::path::{Path, PathBuf};
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

const FLAGS: [&str; 7] = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--hide-scrollbars",
    "--disable-background-networking",
    "--enable-logging=stderr",
    "--v=1",
];

/// `grimoire ARGS…` in the folder `dir`, which must succeed.
fn grimoire(dir: &Path, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_grimoire"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("run grimoire");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The DOM the browser built from `page` opened with `query`, after its
/// script ran; fails on anything logged to the page's console.
fn dom(browser: &str, page: &Path, query: &str) -> String {
    let url = format!("file://{}{query}", page.display());
    let out = Command::new(browser)
        .args(FLAGS)
        .arg("--dump-dom")
        .arg(&url)
        .output()
        .expect("run chromium");
    let log = String::from_utf8_lossy(&out.stderr);
    let console: Vec<&str> = log.lines().filter(|l| l.contains(":CONSOLE")).collect();
    assert!(console.is_empty(), "{url}: {console:#?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The rows of the table `id` in a DOM, in order, each as its text from
/// `<tr` to `</tr>`.
fn rows<'d>(dom: &'d str, id: &str) -> Vec<&'d str> {
    let start = dom
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no table {id}"));
    let body = &dom[start..];
    let body = &body[body.find("<tbody>").expect("tbody")..body.find("</tbody>").expect("/tbody")];
    body.split("<tr").skip(1).collect()
}

/// The value a row's `column`th cell sorts by (`data-v`), `None` when empty.
fn sort_value(row: &str, column: usize) -> Option<f64> {
    let cell = row.split("<td").nth(column + 1).expect("the cell");
    let v = cell.split("data-v=\"").nth(1)?.split('"').next()?;
    v.parse().ok()
}

/// What the browser must show of `page`: charts, a table whose rows a click
/// on the cost header sorts (highest first, again lowest first) and a filter
/// hides; a screenshot of it into `shot`.
fn check_page(browser: &str, page: &Path, svgs: usize, filter: &str, shot: &Path) {
    let name = page.display();
    let built = dom(browser, page, "");
    assert!(built.matches("<svg").count() >= svgs, "{name}: {built}");
    // The script ran: each header a button, the filter shown.
    assert!(
        built.contains("<th data-col=\"cost\" data-num=\"\"><button type=\"button\""),
        "{name}: {built}"
    );
    assert!(built.contains("<p class=\"filter\">"), "{name}");
    let before = rows(&built, "cards");
    assert!(before.len() > 10, "{name}");
    // A click on the cost header: highest cost first, cards without one last.
    let sorted = dom(browser, page, "?sort=cost");
    assert!(sorted.contains("aria-sort=\"descending\""), "{name}");
    let after = rows(&sorted, "cards");
    assert_eq!(after.len(), before.len(), "{name}");
    assert_ne!(after, before, "{name}: sorting by cost changed nothing");
    let costs: Vec<f64> = after.iter().filter_map(|r| sort_value(r, 1)).collect();
    assert!(costs.windows(2).all(|w| w[0] >= w[1]), "{name}: {costs:?}");
    let rising = dom(browser, page, "?sort=cost&order=asc");
    let costs: Vec<f64> = rows(&rising, "cards")
        .iter()
        .filter_map(|r| sort_value(r, 1))
        .collect();
    assert!(costs.windows(2).all(|w| w[0] <= w[1]), "{name}: {costs:?}");
    // A filter hides every row that does not name it, and says how many are left.
    let filtered = dom(browser, page, &format!("?filter={filter}"));
    let all = rows(&filtered, "cards");
    let (hidden, shown): (Vec<&str>, Vec<&str>) =
        all.iter().partition(|r| r.contains(" hidden=\"\""));
    assert!(
        !hidden.is_empty() && !shown.is_empty(),
        "{name}: {filtered}"
    );
    let words = |r: &str| {
        let find = r.split("data-find=\"").nth(1).unwrap_or_default();
        find.split('"').next().unwrap_or_default().to_string()
    };
    assert!(shown.iter().all(|r| words(r).contains(filter)), "{name}");
    assert!(hidden.iter().all(|r| !words(r).contains(filter)), "{name}");
    assert!(
        filtered.contains(&format!("{} of {} shown", shown.len(), all.len())),
        "{name}"
    );
    // And it renders: a screenshot of real size.
    let _ = std::fs::remove_file(shot);
    let status = Command::new(browser)
        .args(FLAGS)
        .arg("--window-size=1400,1200")
        .arg(format!("--screenshot={}", shot.display()))
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("run chromium");
    assert!(status.status.success());
    let bytes = std::fs::metadata(shot).map(|m| m.len()).unwrap_or(0);
    assert!(bytes > 20_000, "{name}: a screenshot of {bytes} bytes");
}

#[test]
#[ignore = "needs Chromium: cargo test --test cli report_browser -- --ignored"]
fn the_reports_load_sort_and_filter_in_a_headless_browser() {
    let Some(browser) = chromium() else {
        panic!("no chromium on PATH (apt-get install chromium)");
    };
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("report-browser");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let run = ["arcomage", "--games", "2000", "--seed", "1"];
    // One run's page.
    grimoire(
        &dir,
        &[&["simulate"], &run[..], &["--report", &path("report.html")]].concat(),
    );
    check_page(
        browser,
        &dir.join("report.html"),
        4,
        "gems",
        &dir.join("report.png"),
    );
    // The comparison's page: Dragon made cheaper in deck B.
    let deck = dir.join("cheaper-dragon");
    std::fs::create_dir_all(&deck).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("cards/arcomage");
    for file in ["beasts.edn", "bricks.edn", "gems.edn"] {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        let text = text.replace(
            "{:card \"Dragon\" :type :beasts :cost 25",
            "{:card \"Dragon\" :type :beasts :cost 15",
        );
        std::fs::write(deck.join(file), text).unwrap();
    }
    // Named from the run's folder: the page's line for deck B is the docs' too.
    let versus = [
        "--versus-cards",
        "cheaper-dragon",
        "--report",
        &path("report-versus.html"),
    ];
    grimoire(&dir, &[&["simulate"], &run[..], &versus[..]].concat());
    check_page(
        browser,
        &dir.join("report-versus.html"),
        2,
        "beasts",
        &dir.join("report-versus.png"),
    );
    // The sharded run's page, merged.
    let mut merge = vec!["merge".to_string()];
    for k in 1..=2 {
        let shard = format!("{k}/2");
        let json = grimoire(
            &dir,
            &[
                &["simulate"],
                &run[..],
                &["--shard", &shard, "--format", "json"],
            ]
            .concat(),
        );
        let file = path(&format!("shard-{k}.json"));
        std::fs::write(&file, json).unwrap();
        merge.push(file);
    }
    merge.extend(["--report".to_string(), path("report-merged.html")]);
    grimoire(&dir, &merge.iter().map(String::as_str).collect::<Vec<_>>());
    check_page(
        browser,
        &dir.join("report-merged.html"),
        4,
        "bricks",
        &dir.join("report-merged.png"),
    );
}
