//! Seed 004's own spreadsheet, `Cards.csv`, as a card source.

use std::path::PathBuf;

use grimoire::cli::{self, EvalArgs, Format, PlayArgs};

const CSV: &str = "tests/data/csv/arcomage/Cards.csv";

#[test]
fn the_seed_spreadsheet_is_checked_with_csv_locations() {
    let out = cli::check(&[PathBuf::from(CSV)], None, Format::Human, false);
    // The four `{effected …}` maps are errors; the descriptions that disagree with
    // their effects (Rock Launcher, Little Snakes, Troll Keeper, …) are warnings.
    assert_eq!(out.code, 1);
    insta::assert_snapshot!(out.stderr);
}

#[test]
fn the_seed_spreadsheet_as_json() {
    let out = cli::check(&[PathBuf::from(CSV)], Some("arcomage"), Format::Json, false);
    let json: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let errors: Vec<_> = json
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["severity"] == "error")
        .collect();
    let lines: Vec<i64> = errors.iter().map(|d| d["line"].as_i64().unwrap()).collect();
    assert_eq!(lines, [78, 80, 81, 82]);
    assert!(errors.iter().all(|d| d["help"] == "write `:effected`"));
}

/// The spreadsheet with its four missing colons put back.
fn fixed_spreadsheet() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("csv-fixed");
    std::fs::create_dir_all(&dir).unwrap();
    let text = std::fs::read_to_string(CSV)
        .unwrap()
        .replace("{effected", "{:effected");
    let file = dir.join("Cards.csv");
    // Written aside and renamed: tests running at once each write it, and
    // one must never read it half written (empty).
    let aside = dir.join(format!("Cards.csv.{:?}", std::thread::current().id()));
    std::fs::write(&aside, text).unwrap();
    std::fs::rename(&aside, &file).unwrap();
    file
}

#[test]
fn play_refuses_the_unfixed_spreadsheet_and_plays_the_fixed_one() {
    let args = |cards: PathBuf| PlayArgs {
        encounter: None,
        players: None,
        rules: "arcomage".into(),
        cards: vec![cards],
        seed: 3,
        ai: vec![],
        human: false,
        view: None,
        record: None,
        color: false,
    };
    let mut input: &[u8] = b"";
    let out = cli::play(&args(PathBuf::from(CSV)), &mut input, &mut Vec::new());
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("the deck does not check"));
    let out = cli::play(&args(fixed_spreadsheet()), &mut input, &mut Vec::new());
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.contains(" wins: ") || out.stdout.contains("tie") || out.stdout.contains("draw")
    );
}

#[test]
fn eval_a_card_from_the_spreadsheet() {
    let out = cli::eval(&EvalArgs {
        rules: "arcomage".into(),
        card: Some("Elven Archers".into()),
        cards: vec![fixed_spreadsheet()],
        sets: vec![
            "you.wall=12".into(),
            "other.wall=5".into(),
            "other.tower=20".into(),
        ],
        format: Format::Json,
        ..EvalArgs::default()
    });
    assert_eq!(out.code, 0, "{}", out.stderr);
    let json: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    // Your wall is higher: 6 straight to the enemy tower, the wall untouched.
    assert_eq!(json["state"]["other"]["tower"], 14);
    assert_eq!(json["state"]["other"]["wall"], 5);
}

#[test]
fn a_csv_error_inside_a_quoted_cell_points_into_the_file() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("csv-quoted/arcomage");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("Cards.csv");
    // The effects cell is quoted and holds an escaped quote before the typo.
    std::fs::write(
        &file,
        "name,description,discardable,play-again,type,cost,effects\n\
         Odd,\"Say \"\"hi\"\"\",true,false,:bricks,1,\"[{:effected :you :resource :wal :amount 1}]\"\n",
    )
    .unwrap();
    let out = cli::check(&[file], None, Format::Json, false);
    let json: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(json[0]["line"], 2);
    // `:wal` starts at column 63 of line 2 (1-based, counting the quote that opens the cell).
    let line = "Odd,\"Say \"\"hi\"\"\",true,false,:bricks,1,\"[{:effected :you :resource :wal :amount 1}]\"";
    assert_eq!(
        json[0]["column"].as_u64().unwrap() as usize,
        line.find(":wal ").unwrap() + 1
    );
    assert_eq!(json[0]["help"], "did you mean `:wall`?");
}
