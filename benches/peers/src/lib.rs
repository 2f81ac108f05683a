//! Arcomage written directly in Rust: the native floor that grimoire's whole
//! games are timed against (issue 11, "Speed to the floor").
//!
//! The game is what grimoire plays with `rules/arcomage.edn` and the 102
//! cards of `cards/arcomage/`, card by card, hand-written: two players'
//! eight values in a struct, each card's effects in one `match`, no data
//! read at run time. It does not link grimoire.
//!
//! It draws from the same generator as grimoire ([`Rng`] is the type of
//! `grimoire::eval::Rng`), the same draws in the same order: the deal's
//! shuffle, each reshuffle of the discards, and the random policy's
//! `random_range` over the affordable cards in hand order (the discardable
//! ones when none is). So a seed plays the same game both ways, move for
//! move; `tests/native_equivalence.rs` checks that it does.
//!
//! Grimoire's turn machine, as this game follows it:
//! - Production (bricks += quarry, gems += magic, beasts += zoo) at the start
//!   of every turn, then a victory check.
//! - A play: the card leaves the hand (the cards after it move up), its cost
//!   is paid, its effects run, it goes on the discards, victory is checked;
//!   then the hand is filled to 6, a card that draws draws, and a card that
//!   makes its player discard asks for a discard among the discardable cards
//!   (drawn by the policy like any choice). A "play again" card lets the same
//!   player act again, up to [`MAX_ACTIONS_PER_TURN`] actions a turn.
//! - A discard when nothing is affordable: it goes on the discards, the hand is
//!   filled and the turn ends.
//! - A player with nothing to do (every card unaffordable and undiscardable)
//!   passes.
//! - Victory, after production and after every play: for each seat in turn, tower at least 50,
//!   any resource at least 100 (that seat wins), tower 0 (the other wins);
//!   two different winners at once are a tie. A game still going at the end
//!   of turn [`TURN_LIMIT`] stops there (another limit with
//!   [`Arcomage::with_turn_limit`], to test that ending).

pub mod corpus;

use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};

/// The generator: the same type as `grimoire::eval::Rng`.
pub type Rng = rand_pcg::Pcg32;

/// Cards in the deck, one copy each.
pub const DECK_SIZE: usize = 102;

/// Cards a hand is filled up to.
pub const HAND_SIZE: usize = 6;

/// A tower this tall wins.
pub const TOWER_GOAL: i32 = 50;

/// A resource this large wins.
pub const RESOURCE_GOAL: i32 = 100;

/// The last turn a game may take (`:turns {:limit 1000}`).
pub const TURN_LIMIT: u32 = 1000;

/// Grimoire's cap on actions in one turn: "play again" past it ends the turn.
pub const MAX_ACTIONS_PER_TURN: u32 = 100;

/// A card's place in [`CARDS`], as grimoire numbers the bundled deck.
pub type CardId = u8;

/// One player's values. Towers, walls and resources never fall below 0;
/// producers never below 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Player {
    /// The tower: at 0 its owner has lost.
    pub tower: i32,
    /// Absorbs damage before the tower.
    pub wall: i32,
    /// Bricks produced each turn.
    pub quarry: i32,
    /// Pays for red cards.
    pub bricks: i32,
    /// Gems produced each turn.
    pub magic: i32,
    /// Pays for blue cards.
    pub gems: i32,
    /// Beasts produced each turn.
    pub zoo: i32,
    /// Pays for green cards.
    pub beasts: i32,
}

impl Player {
    /// The starting values.
    pub const START: Player = Player {
        tower: 20,
        wall: 10,
        quarry: 2,
        bricks: 5,
        magic: 2,
        gems: 5,
        zoo: 2,
        beasts: 5,
    };

    /// `n` damage: the wall takes what it can, the tower the rest.
    #[inline]
    fn damage(&mut self, n: i32) {
        let through = (n - self.wall).max(0);
        add(&mut self.tower, -through);
        self.wall -= n.clamp(0, self.wall);
    }

    #[inline]
    fn resource(&mut self, colour: Colour) -> &mut i32 {
        match colour {
            Colour::Bricks => &mut self.bricks,
            Colour::Gems => &mut self.gems,
            Colour::Beasts => &mut self.beasts,
        }
    }
}

/// Adds `n` to a value that cannot fall below 0.
#[inline]
fn add(value: &mut i32, n: i32) {
    *value = (*value + n).max(0);
}

/// Adds `n` to a producer, which cannot fall below 1.
#[inline]
fn add_producer(value: &mut i32, n: i32) {
    *value = (*value + n).max(1);
}

/// What a card is paid in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Colour {
    /// Red cards.
    Bricks = 0,
    /// Blue cards.
    Gems = 1,
    /// Green cards.
    Beasts = 2,
}

/// A card's cost and flags; its effects are in [`apply_effects`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Card {
    /// Its name in the card files.
    pub name: &'static str,
    /// What it is paid in.
    pub colour: Colour,
    /// How much.
    pub cost: i32,
    /// The same player acts again after it.
    pub play_again: bool,
    /// "Draw 1 card, discard 1 card" (Elven Scout, Prism).
    pub draw_and_discard: bool,
    /// Whether it may be discarded (all but Lodestone).
    pub discardable: bool,
}

const fn card(name: &'static str, colour: Colour, cost: i32) -> Card {
    Card {
        name,
        colour,
        cost,
        play_again: false,
        draw_and_discard: false,
        discardable: true,
    }
}

const fn again(name: &'static str, colour: Colour, cost: i32) -> Card {
    Card {
        play_again: true,
        ..card(name, colour, cost)
    }
}

const fn draw_discard_again(name: &'static str, colour: Colour, cost: i32) -> Card {
    Card {
        draw_and_discard: true,
        ..again(name, colour, cost)
    }
}

const fn kept(name: &'static str, colour: Colour, cost: i32) -> Card {
    Card {
        discardable: false,
        ..card(name, colour, cost)
    }
}

use Colour::{Beasts, Bricks, Gems};

/// The deck in grimoire's order: the card files sorted by name (beasts,
/// bricks, gems), each file's cards in the order written.
pub static CARDS: [Card; DECK_SIZE] = [
    card("Mad Cow Disease", Beasts, 0),
    again("Faerie", Beasts, 1),
    card("Moody Goblins", Beasts, 1),
    card("Minotaur", Beasts, 3),
    draw_discard_again("Elven Scout", Beasts, 2),
    card("Goblin Mob", Beasts, 3),
    card("Goblin Archers", Beasts, 4),
    again("Shadow Faerie", Beasts, 6),
    card("Orc", Beasts, 3),
    card("Dwarves", Beasts, 5),
    card("Little Snakes", Beasts, 6),
    card("Troll Trainer", Beasts, 7),
    card("Tower Gremlin", Beasts, 8),
    card("Full Moon", Beasts, 0),
    card("Slasher", Beasts, 5),
    card("Ogre", Beasts, 6),
    card("Rabid Sheep", Beasts, 6),
    card("Imp", Beasts, 5),
    card("Spizzer", Beasts, 8),
    card("Werewolf", Beasts, 9),
    card("Corrosion Cloud", Beasts, 11),
    card("Unicorn", Beasts, 9),
    card("Elven Archers", Beasts, 10),
    card("Succubus", Beasts, 14),
    card("Rock Stompers", Beasts, 11),
    card("Thief", Beasts, 12),
    card("Stone Giant", Beasts, 15),
    card("Vampire", Beasts, 17),
    card("Dragon", Beasts, 25),
    card("Spearman", Beasts, 2),
    card("Gnome", Beasts, 2),
    card("Berserker", Beasts, 4),
    card("Warlord", Beasts, 13),
    card("Pegasus Lancer", Beasts, 18),
    card("Brick Shortage", Bricks, 0),
    again("Lucky Cache", Bricks, 0),
    again("Friendly Terrain", Bricks, 1),
    card("Miners", Bricks, 3),
    card("Mother Lode", Bricks, 4),
    card("Dwarven Miners", Bricks, 7),
    card("Work Overtime", Bricks, 2),
    card("Copping the Tech", Bricks, 5),
    card("Basic Wall", Bricks, 2),
    card("Sturdy Wall", Bricks, 3),
    card("Innovations", Bricks, 2),
    card("Foundations", Bricks, 3),
    again("Tremors", Bricks, 7),
    again("Secret Room", Bricks, 8),
    card("Earthquake", Bricks, 0),
    card("Big Wall", Bricks, 5),
    card("Collapse!", Bricks, 4),
    card("New Equipment", Bricks, 6),
    card("Strip Mine", Bricks, 0),
    card("Reinforced Wall", Bricks, 8),
    card("Porticulus", Bricks, 9),
    card("Crystal Rocks", Bricks, 9),
    card("Harmonic Ore", Bricks, 11),
    card("Mondo Wall", Bricks, 13),
    card("Focused Designs", Bricks, 15),
    card("Great Wall", Bricks, 16),
    card("Rock Launcher", Bricks, 18),
    card("Dragon's Heart", Bricks, 24),
    card("Forced Labor", Bricks, 7),
    card("Rock Garden", Bricks, 1),
    card("Flood Water", Bricks, 6),
    card("Barracks", Bricks, 10),
    card("Battlements", Bricks, 14),
    card("Shift", Bricks, 17),
    again("Quartz", Gems, 1),
    again("Smoky Quartz", Gems, 2),
    card("Amethyst", Gems, 2),
    card("Spell Weavers", Gems, 3),
    draw_discard_again("Prism", Gems, 2),
    kept("Lodestone", Gems, 5),
    card("Solar Flare", Gems, 4),
    card("Crystal Matrix", Gems, 6),
    card("Gemstone Flaw", Gems, 2),
    card("Ruby", Gems, 3),
    card("Gem Spear", Gems, 4),
    card("Power Burn", Gems, 3),
    card("Harmonic Vibe", Gems, 7),
    card("Parity", Gems, 7),
    card("Emerald", Gems, 6),
    card("Pearl of Wisdom", Gems, 9),
    card("Shatterer", Gems, 8),
    card("Crumblestone", Gems, 7),
    card("Sapphire", Gems, 10),
    card("Discord", Gems, 5),
    card("Fire Ruby", Gems, 13),
    card("Quarry's Help", Gems, 4),
    card("Crystal Shield", Gems, 12),
    card("Empathy Gem", Gems, 14),
    card("Diamond", Gems, 16),
    card("Sanctuary", Gems, 15),
    card("Lava Jewel", Gems, 17),
    card("Dragon's Eye", Gems, 21),
    card("Crystallize", Gems, 8),
    card("Bag of Baubles", Gems, 0),
    card("Rainbow", Gems, 0),
    card("Apprentice", Gems, 5),
    card("Lightning Shard", Gems, 11),
    card("Phase Jewel", Gems, 18),
];

/// Runs card `id`'s effects, its cost already paid: `you` played it.
/// Each line is one effect of the card's file, in the order written, each
/// clamped as it lands.
pub fn apply_effects(id: CardId, you: &mut Player, other: &mut Player) {
    match id {
        // Mad Cow Disease
        0 => {
            add(&mut you.beasts, -6);
            add(&mut other.beasts, -6);
        }
        // Faerie
        1 => other.damage(2),
        // Moody Goblins
        2 => {
            other.damage(4);
            add(&mut you.gems, -3);
        }
        // Minotaur
        3 => add_producer(&mut you.zoo, 1),
        // Elven Scout: its draw and discard are the turn machine's.
        4 => {}
        // Goblin Mob
        5 => {
            other.damage(6);
            you.damage(3);
        }
        // Goblin Archers
        6 => {
            add(&mut other.tower, -3);
            you.damage(1);
        }
        // Shadow Faerie
        7 => add(&mut other.tower, -2),
        // Orc
        8 => other.damage(5),
        // Dwarves
        9 => {
            other.damage(4);
            add(&mut you.wall, 3);
        }
        // Little Snakes
        10 => add(&mut other.tower, -4),
        // Troll Trainer
        11 => add_producer(&mut you.zoo, 2),
        // Tower Gremlin
        12 => {
            other.damage(2);
            add(&mut you.wall, 4);
            add(&mut you.tower, 2);
        }
        // Full Moon
        13 => {
            add_producer(&mut you.zoo, 1);
            add_producer(&mut other.zoo, 1);
            add(&mut you.beasts, 3);
        }
        // Slasher
        14 => other.damage(6),
        // Ogre
        15 => other.damage(7),
        // Rabid Sheep
        16 => {
            other.damage(6);
            add(&mut other.beasts, -3);
        }
        // Imp
        17 => {
            other.damage(6);
            add(&mut you.bricks, -5);
            add(&mut you.gems, -5);
            add(&mut you.beasts, -5);
            add(&mut other.bricks, -5);
            add(&mut other.gems, -5);
            add(&mut other.beasts, -5);
        }
        // Spizzer
        18 => other.damage(if other.wall == 0 { 10 } else { 6 }),
        // Werewolf
        19 => other.damage(9),
        // Corrosion Cloud
        20 => other.damage(if other.wall > 0 { 10 } else { 7 }),
        // Unicorn
        21 => other.damage(if you.magic > other.magic { 12 } else { 8 }),
        // Elven Archers
        22 => {
            if you.wall > other.wall {
                add(&mut other.tower, -6);
            } else {
                other.damage(6);
            }
        }
        // Succubus
        23 => {
            add(&mut other.tower, -5);
            add(&mut other.beasts, -8);
        }
        // Rock Stompers
        24 => {
            other.damage(8);
            add_producer(&mut other.quarry, -1);
        }
        // Thief: the gains, half of what the enemy will lose rounded up, first.
        25 => {
            add(&mut you.gems, (other.gems.min(10) + 1) / 2);
            add(&mut you.bricks, (other.bricks.min(5) + 1) / 2);
            add(&mut other.gems, -10);
            add(&mut other.bricks, -5);
        }
        // Stone Giant
        26 => {
            other.damage(10);
            add(&mut you.wall, 4);
        }
        // Vampire
        27 => {
            other.damage(10);
            add(&mut other.beasts, -5);
            add_producer(&mut other.zoo, -1);
        }
        // Dragon
        28 => {
            other.damage(20);
            add(&mut other.gems, -10);
            add_producer(&mut other.zoo, -1);
        }
        // Spearman
        29 => other.damage(if you.wall > other.wall { 3 } else { 2 }),
        // Gnome
        30 => {
            other.damage(3);
            add(&mut you.gems, 1);
        }
        // Berserker
        31 => {
            other.damage(8);
            add(&mut you.tower, -3);
        }
        // Warlord
        32 => {
            other.damage(13);
            add(&mut you.gems, -3);
        }
        // Pegasus Lancer
        33 => add(&mut other.tower, -12),
        // Brick Shortage
        34 => {
            add(&mut you.bricks, -8);
            add(&mut other.bricks, -8);
        }
        // Lucky Cache
        35 => {
            add(&mut you.bricks, 2);
            add(&mut you.gems, 2);
        }
        // Friendly Terrain
        36 => add(&mut you.wall, 1),
        // Miners
        37 => add_producer(&mut you.quarry, 1),
        // Mother Lode
        38 => {
            let n = if you.quarry < other.quarry { 2 } else { 1 };
            add_producer(&mut you.quarry, n);
        }
        // Dwarven Miners
        39 => {
            add(&mut you.wall, 4);
            add_producer(&mut you.quarry, 1);
        }
        // Work Overtime
        40 => {
            add(&mut you.wall, 5);
            add(&mut you.gems, -6);
        }
        // Copping the Tech
        41 => you.quarry = you.quarry.max(other.quarry).max(1),
        // Basic Wall
        42 => add(&mut you.wall, 3),
        // Sturdy Wall
        43 => add(&mut you.wall, 4),
        // Innovations
        44 => {
            add_producer(&mut you.quarry, 1);
            add_producer(&mut other.quarry, 1);
            add(&mut you.gems, 4);
        }
        // Foundations
        45 => {
            let n = if you.wall == 0 { 6 } else { 3 };
            add(&mut you.wall, n);
        }
        // Tremors
        46 => {
            add(&mut you.wall, -5);
            add(&mut other.wall, -5);
        }
        // Secret Room
        47 => add_producer(&mut you.magic, 1),
        // Earthquake
        48 => {
            add_producer(&mut you.quarry, -1);
            add_producer(&mut other.quarry, -1);
        }
        // Big Wall
        49 => add(&mut you.wall, 6),
        // Collapse!
        50 => add_producer(&mut other.quarry, -1),
        // New Equipment
        51 => add_producer(&mut you.quarry, 2),
        // Strip Mine
        52 => {
            add_producer(&mut you.quarry, -1);
            add(&mut you.wall, 10);
            add(&mut you.gems, 5);
        }
        // Reinforced Wall
        53 => add(&mut you.wall, 8),
        // Porticulus
        54 => {
            add(&mut you.wall, 5);
            add_producer(&mut you.zoo, 1);
        }
        // Crystal Rocks
        55 => {
            add(&mut you.wall, 7);
            add(&mut you.gems, 7);
        }
        // Harmonic Ore
        56 => {
            add(&mut you.wall, 6);
            add(&mut you.tower, 3);
        }
        // Mondo Wall
        57 => add(&mut you.wall, 12),
        // Focused Designs
        58 => {
            add(&mut you.wall, 8);
            add(&mut you.tower, 5);
        }
        // Great Wall
        59 => add(&mut you.wall, 15),
        // Rock Launcher
        60 => {
            add(&mut you.wall, 6);
            other.damage(10);
        }
        // Dragon's Heart
        61 => {
            add(&mut you.wall, 20);
            add(&mut you.tower, 8);
        }
        // Forced Labor
        62 => {
            add(&mut you.wall, 9);
            add(&mut you.beasts, -5);
        }
        // Rock Garden
        63 => {
            add(&mut you.wall, 1);
            add(&mut you.tower, 1);
            add(&mut you.beasts, 2);
        }
        // Flood Water: the lowest wall is hit, both on a tie; no wall changes.
        64 => {
            if you.wall <= other.wall {
                add_producer(&mut you.zoo, -1);
                add(&mut you.tower, -2);
            }
            if you.wall >= other.wall {
                add_producer(&mut other.zoo, -1);
                add(&mut other.tower, -2);
            }
        }
        // Barracks
        65 => {
            if you.zoo < other.zoo {
                add_producer(&mut you.zoo, 1);
            }
            add(&mut you.beasts, 6);
            add(&mut you.wall, 6);
        }
        // Battlements
        66 => {
            add(&mut you.wall, 7);
            other.damage(6);
        }
        // Shift
        67 => std::mem::swap(&mut you.wall, &mut other.wall),
        // Quartz
        68 => add(&mut you.tower, 1),
        // Smoky Quartz
        69 => add(&mut other.tower, -1),
        // Amethyst
        70 => add(&mut you.tower, 3),
        // Spell Weavers
        71 => add_producer(&mut you.magic, 1),
        // Prism: its draw and discard are the turn machine's.
        72 => {}
        // Lodestone
        73 => add(&mut you.tower, 3),
        // Solar Flare
        74 => {
            add(&mut you.tower, 2);
            add(&mut other.tower, -2);
        }
        // Crystal Matrix
        75 => {
            add_producer(&mut you.magic, 1);
            add(&mut you.tower, 3);
            add(&mut other.tower, 1);
        }
        // Gemstone Flaw
        76 => add(&mut other.tower, -3),
        // Ruby
        77 => add(&mut you.tower, 5),
        // Gem Spear
        78 => add(&mut other.tower, -5),
        // Power Burn
        79 => {
            add(&mut you.tower, -5);
            add_producer(&mut you.magic, 2);
        }
        // Harmonic Vibe
        80 => {
            add_producer(&mut you.magic, 1);
            add(&mut you.tower, 3);
            add(&mut you.wall, 3);
        }
        // Parity
        81 => {
            let highest = you.magic.max(other.magic);
            you.magic = highest;
            other.magic = highest;
        }
        // Emerald
        82 => add(&mut you.tower, 8),
        // Pearl of Wisdom
        83 => {
            add(&mut you.tower, 5);
            add_producer(&mut you.magic, 1);
        }
        // Shatterer
        84 => {
            add_producer(&mut you.magic, -1);
            add(&mut other.tower, -9);
        }
        // Crumblestone
        85 => {
            add(&mut you.tower, 5);
            add(&mut other.bricks, -6);
        }
        // Sapphire
        86 => add(&mut you.tower, 11),
        // Discord
        87 => {
            add(&mut you.tower, -7);
            add(&mut other.tower, -7);
            add_producer(&mut you.magic, -1);
            add_producer(&mut other.magic, -1);
        }
        // Fire Ruby
        88 => {
            add(&mut you.tower, 6);
            add(&mut other.tower, -4);
        }
        // Quarry's Help
        89 => {
            add(&mut you.tower, 7);
            add(&mut you.bricks, -10);
        }
        // Crystal Shield
        90 => {
            add(&mut you.tower, 8);
            add(&mut you.wall, 3);
        }
        // Empathy Gem
        91 => {
            add(&mut you.tower, 8);
            add_producer(&mut you.zoo, 1);
        }
        // Diamond
        92 => add(&mut you.tower, 15),
        // Sanctuary
        93 => {
            add(&mut you.tower, 10);
            add(&mut you.wall, 5);
            add(&mut you.beasts, 5);
        }
        // Lava Jewel
        94 => {
            add(&mut you.tower, 12);
            other.damage(6);
        }
        // Dragon's Eye
        95 => add(&mut you.tower, 20),
        // Crystallize
        96 => {
            add(&mut you.tower, 11);
            add(&mut you.wall, -6);
        }
        // Bag of Baubles
        97 => {
            let n = if you.tower < other.tower { 2 } else { 1 };
            add(&mut you.tower, n);
        }
        // Rainbow
        98 => {
            add(&mut you.tower, 1);
            add(&mut other.tower, 1);
            add(&mut you.gems, 3);
        }
        // Apprentice
        99 => {
            add(&mut you.tower, 4);
            add(&mut you.beasts, -3);
            add(&mut other.tower, -2);
        }
        // Lightning Shard
        100 => {
            if you.tower > other.wall {
                add(&mut other.tower, -8);
            } else {
                other.damage(8);
            }
        }
        // Phase Jewel
        101 => {
            add(&mut you.tower, 13);
            add(&mut you.beasts, 6);
            add(&mut you.bricks, 6);
        }
        _ => {}
    }
}

/// Why a game was won, numbered as the rule set's `:victory` list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The winner's tower reached [`TOWER_GOAL`].
    BuiltTower = 0,
    /// One of the winner's resources reached [`RESOURCE_GOAL`].
    GatheredResources = 1,
    /// The loser's tower fell to 0.
    DestroyedTower = 2,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// This seat won.
    Won {
        /// 0 or 1.
        seat: u8,
        /// By which condition (the first that held, seat 0's before seat 1's).
        reason: Reason,
    },
    /// Both seats won at once.
    Tie,
    /// The last turn allowed ([`TURN_LIMIT`]) ended with no winner.
    TurnLimit,
}

/// A finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// How it ended.
    pub ending: Ending,
    /// The turn it ended in, from 1.
    pub turns: u32,
}

/// What a game does, for whoever watches it (a test comparing play by play).
/// Every method does nothing unless overridden, so `()` watches for free.
pub trait Watch {
    /// `seat` played `card`.
    fn played(&mut self, _seat: u8, _card: CardId) {}
    /// `seat` discarded `card`; `forced` when a card's "discard 1" made it.
    fn discarded(&mut self, _seat: u8, _card: CardId, _forced: bool) {}
    /// `seat` could do nothing and passed.
    fn passed(&mut self, _seat: u8) {}
}

impl Watch for () {}

/// A hand: at most 6 cards, 7 between a draw and its discard.
#[derive(Clone, Copy, Debug, Default)]
struct Hand {
    cards: [CardId; 8],
    len: u8,
}

impl Hand {
    fn as_slice(&self) -> &[CardId] {
        &self.cards[..usize::from(self.len)]
    }

    fn push(&mut self, card: CardId) {
        self.cards[usize::from(self.len)] = card;
        self.len += 1;
    }

    /// Takes out the card at `at`; the cards after it move up, keeping their order.
    fn remove(&mut self, at: usize) -> CardId {
        let card = self.cards[at];
        let len = usize::from(self.len);
        // A few bytes at most: a loop, not a call to `memmove`.
        for i in at..len - 1 {
            self.cards[i] = self.cards[i + 1];
        }
        self.len -= 1;
        card
    }
}

/// What the policy may choose from: hand positions, and whether they are plays.
struct Choices {
    /// Byte `k` holds the `k`th position: in a register, not a stack array
    /// read back whole (a store-forwarding stall: a third of the policy's time).
    at: u64,
    len: usize,
    plays: bool,
}

impl Choices {
    /// The positions of `hand` whose card `keep` accepts, in hand order. Each
    /// is written and kept or not by the count alone: whether a random hand's
    /// card is affordable is a branch no predictor guesses.
    #[inline]
    fn of(hand: &[CardId], plays: bool, keep: impl Fn(&Card) -> bool) -> Choices {
        let mut at = 0u64;
        let mut len = 0;
        for (i, &card) in hand.iter().enumerate() {
            // Slot `len` may hold a position not kept: overwritten.
            let shift = 8 * (len & 7);
            at = (at & !(0xff << shift)) | ((i as u64) << shift);
            len += usize::from(keep(&CARDS[usize::from(card)]));
        }
        Choices { at, len, plays }
    }

    /// The `k`th position.
    fn get(&self, k: usize) -> usize {
        ((self.at >> (8 * (k & 7))) & 0xff) as usize
    }
}

/// A game; one value plays any number of games, reusing its piles.
#[derive(Clone, Debug)]
pub struct Arcomage {
    players: [Player; 2],
    hands: [Hand; 2],
    draw_pile: Vec<CardId>,
    discards: Vec<CardId>,
    rng: Rng,
    current: u8,
    turn: u32,
    turn_limit: u32,
}

impl Default for Arcomage {
    fn default() -> Self {
        Self::new()
    }
}

impl Arcomage {
    /// A table ready to play.
    pub fn new() -> Arcomage {
        Arcomage {
            players: [Player::START; 2],
            hands: [Hand::default(); 2],
            draw_pile: Vec::with_capacity(DECK_SIZE),
            discards: Vec::with_capacity(DECK_SIZE),
            rng: Rng::seed_from_u64(0),
            current: 0,
            turn: 1,
            turn_limit: TURN_LIMIT,
        }
    }

    /// A table whose games stop after turn `limit`.
    pub fn with_turn_limit(limit: u32) -> Arcomage {
        Arcomage {
            turn_limit: limit,
            ..Arcomage::new()
        }
    }

    /// Both players' values.
    pub fn players(&self) -> &[Player; 2] {
        &self.players
    }

    /// `seat`'s hand, in the order drawn.
    pub fn hand(&self, seat: usize) -> &[CardId] {
        self.hands[seat].as_slice()
    }

    /// Cards left in the draw pile.
    pub fn draw_pile_len(&self) -> usize {
        self.draw_pile.len()
    }

    /// Plays one whole game from `seed`, both seats with the random policy.
    pub fn play(&mut self, seed: u64, watch: &mut impl Watch) -> Outcome {
        self.deal(seed);
        loop {
            if let Some(ending) = self.take_turn(watch) {
                return Outcome {
                    ending,
                    turns: self.turn,
                };
            }
            if self.turn >= self.turn_limit {
                return Outcome {
                    ending: Ending::TurnLimit,
                    turns: self.turn,
                };
            }
            self.turn += 1;
            self.current ^= 1;
        }
    }

    /// Plays a game from each seed and sums them.
    pub fn run(&mut self, seeds: impl IntoIterator<Item = u64>) -> Summary {
        let mut summary = Summary::default();
        for seed in seeds {
            summary.count(self.play(seed, &mut ()));
        }
        summary
    }

    /// Starting values, every card shuffled into the draw pile, both hands filled.
    fn deal(&mut self, seed: u64) {
        self.rng = Rng::seed_from_u64(seed);
        self.players = [Player::START; 2];
        self.hands = [Hand::default(); 2];
        self.discards.clear();
        self.draw_pile.clear();
        self.draw_pile.extend(0..DECK_SIZE as CardId);
        self.draw_pile.shuffle(&mut self.rng);
        self.refill(0);
        self.refill(1);
        self.current = 0;
        self.turn = 1;
    }

    /// One turn of the seat whose turn it is; the ending, if it ended the game.
    fn take_turn(&mut self, watch: &mut impl Watch) -> Option<Ending> {
        let seat = usize::from(self.current);
        let me = &mut self.players[seat];
        me.bricks += me.quarry;
        me.gems += me.magic;
        me.beasts += me.zoo;
        if let Some(ending) = self.victory() {
            return Some(ending);
        }
        let mut actions = 0;
        loop {
            let choices = self.choices(seat);
            if choices.len == 0 {
                watch.passed(self.current);
                return None;
            }
            let at = choices.get(self.rng.random_range(0..choices.len));
            let card = self.hands[seat].remove(at);
            if !choices.plays {
                watch.discarded(self.current, card, false);
                self.discards.push(card);
                self.refill(seat);
                return None;
            }
            watch.played(self.current, card);
            let def = &CARDS[usize::from(card)];
            let [first, second] = &mut self.players;
            let (you, other) = if seat == 0 {
                (first, second)
            } else {
                (second, first)
            };
            add(you.resource(def.colour), -def.cost);
            apply_effects(card, you, other);
            self.discards.push(card);
            if let Some(ending) = self.victory() {
                return Some(ending);
            }
            self.refill(seat);
            if def.draw_and_discard {
                self.draw(seat);
                self.forced_discard(seat, watch);
            }
            actions += 1;
            if !def.play_again || actions >= MAX_ACTIONS_PER_TURN {
                return None;
            }
        }
    }

    /// The random policy's options: the affordable cards in hand order, or
    /// if there are none the discardable ones.
    fn choices(&self, seat: usize) -> Choices {
        let me = &self.players[seat];
        let have = [me.bricks, me.gems, me.beasts];
        let hand = self.hands[seat].as_slice();
        let plays = Choices::of(hand, true, |c| c.cost <= have[c.colour as usize]);
        if plays.len > 0 {
            return plays;
        }
        self.discardable(seat)
    }

    /// The discardable cards of `seat`'s hand, in hand order.
    fn discardable(&self, seat: usize) -> Choices {
        Choices::of(self.hands[seat].as_slice(), false, |c| c.discardable)
    }

    /// A card's "discard 1": a random discardable card, if the hand holds one.
    fn forced_discard(&mut self, seat: usize, watch: &mut impl Watch) {
        let choices = self.discardable(seat);
        if choices.len == 0 {
            return;
        }
        let at = choices.get(self.rng.random_range(0..choices.len));
        let card = self.hands[seat].remove(at);
        watch.discarded(self.current, card, true);
        self.discards.push(card);
    }

    /// Draws one card; an empty draw pile is first refilled from the discards, reshuffled.
    fn draw(&mut self, seat: usize) {
        if self.draw_pile.is_empty() {
            std::mem::swap(&mut self.draw_pile, &mut self.discards);
            self.draw_pile.shuffle(&mut self.rng);
        }
        if let Some(card) = self.draw_pile.pop() {
            self.hands[seat].push(card);
        }
    }

    /// Fills `seat`'s hand up to [`HAND_SIZE`], as far as there are cards.
    fn refill(&mut self, seat: usize) {
        while usize::from(self.hands[seat].len) < HAND_SIZE {
            let before = self.hands[seat].len;
            self.draw(seat);
            if self.hands[seat].len == before {
                break;
            }
        }
    }

    /// Whether the game is won.
    #[inline]
    fn victory(&self) -> Option<Ending> {
        let over = |p: &Player| {
            p.tower >= TOWER_GOAL
                || p.tower == 0
                || p.bricks.max(p.gems).max(p.beasts) >= RESOURCE_GOAL
        };
        if over(&self.players[0]) || over(&self.players[1]) {
            self.judge()
        } else {
            None
        }
    }

    /// Who won, once some condition holds: each seat's conditions in turn,
    /// the first that holds giving the reason; two different winners are a tie.
    #[cold]
    fn judge(&self) -> Option<Ending> {
        let mut found: Option<(u8, Reason)> = None;
        let mut tie = false;
        for seat in 0..2u8 {
            let p = &self.players[usize::from(seat)];
            let met = [
                (p.tower >= TOWER_GOAL, seat, Reason::BuiltTower),
                (
                    p.bricks.max(p.gems).max(p.beasts) >= RESOURCE_GOAL,
                    seat,
                    Reason::GatheredResources,
                ),
                (p.tower == 0, seat ^ 1, Reason::DestroyedTower),
            ];
            for (holds, winner, reason) in met {
                if !holds {
                    continue;
                }
                match found {
                    None => found = Some((winner, reason)),
                    Some((w, _)) if w != winner => tie = true,
                    Some(_) => {}
                }
            }
        }
        match (found, tie) {
            (_, true) => Some(Ending::Tie),
            (Some((seat, reason)), false) => Some(Ending::Won { seat, reason }),
            (None, false) => None,
        }
    }
}

/// Sums over games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Games played.
    pub games: u64,
    /// Wins per seat.
    pub wins: [u64; 2],
    /// Games both seats won at once.
    pub ties: u64,
    /// Games stopped by the turn limit.
    pub turn_limits: u64,
    /// Turns over all games.
    pub turns: u64,
}

impl Summary {
    /// Counts one game.
    pub fn count(&mut self, result: Outcome) {
        self.games += 1;
        self.turns += u64::from(result.turns);
        match result.ending {
            Ending::Won { seat, .. } => self.wins[usize::from(seat)] += 1,
            Ending::Tie => self.ties += 1,
            Ending::TurnLimit => self.turn_limits += 1,
        }
    }
}
