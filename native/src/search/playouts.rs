//! Random playouts, the probe of the Grand Duchess policy (Python's `GrandDuchessPolicy.probe`
//! and `_playout`): whole random games from the search's root, drawn from
//! `random.Random(seed)` as in Python, every deal and redeal the game's own. They prove nothing.

use crate::board::Board;
use crate::cards::{face_down, face_up, FACE_DOWN};
use crate::generate::Move;
use crate::search::grand_duchess::{card_move, GrandDuchess};
use crate::search::policy::Playouts;
use crate::search::random::{crc32, PyRandom};
use crate::search::Searcher;
use crate::spec::{Spec, MAX_PILES};

/// A foundation move a playout may make: the lane (0 up, 1 down), the pile (columns first,
/// then the reserve fans), the card's index in a fan (`None` for the top) and the suit.
type Choice = (u8, usize, Option<usize>, usize);

/// A playout's position: the piles as lists of face-up cards, the foundations as heights.
struct Table {
    stock: Vec<u8>,
    columns: Vec<Vec<u8>>,
    fans: Vec<Vec<u8>>,
    fans_open: bool,
    ups: [usize; 4],
    downs: [usize; 4],
    round: u32,
}

/// What a pile of the game is in a playout's [`Table`].
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    Stock,
    Column(usize),
    Fan(usize),
    /// A foundation or any other pile, which no deal of a playout may touch.
    Other,
}

/// Each pile's place in a playout's table.
fn places(gd: &GrandDuchess, piles: usize) -> Vec<Place> {
    (0..piles)
        .map(|k| match (gd.tableau.iter().position(|&i| i == k), gd.reserve.iter().position(|&i| i == k)) {
            _ if k == gd.stock => Place::Stock,
            (Some(j), _) => Place::Column(j),
            (None, Some(j)) => Place::Fan(j),
            (None, None) => Place::Other,
        })
        .collect()
}

impl Table {
    fn read(gd: &GrandDuchess, board: &Board) -> Table {
        let mut table = Table {
            stock: Vec::new(),
            columns: vec![Vec::new(); gd.tableau.len()],
            fans: vec![Vec::new(); gd.reserve.len()],
            fans_open: false,
            ups: [0; 4],
            downs: [0; 4],
            round: 0,
        };
        table.reread(gd, board);
        table
    }

    /// Makes this table `board`'s, reusing its buffers.
    fn reread(&mut self, gd: &GrandDuchess, board: &Board) {
        let face_up_pile = |into: &mut Vec<u8>, i: usize| {
            into.clear();
            into.extend(board.pile(i).iter().map(|&card| face_up(card)));
        };
        self.stock.clear();
        self.stock.extend_from_slice(board.pile(gd.stock));
        for (column, &i) in self.columns.iter_mut().zip(&gd.tableau) {
            face_up_pile(column, i);
        }
        for (fan, &i) in self.fans.iter_mut().zip(&gd.reserve) {
            face_up_pile(fan, i);
        }
        self.fans_open = gd.reserve.iter().any(|&i| board.pile(i).last().is_some_and(|&top| top & FACE_DOWN == 0));
        self.ups = std::array::from_fn(|s| board.pile(gd.up[s]).len());
        self.downs = std::array::from_fn(|s| board.pile(gd.down[s]).len());
        self.round = board.round;
    }

    /// Clicks the stock on the table itself, as [`Board::after_click_into`] and a reread
    /// would: a deal, or a redeal and the new round's deal. False (the table untouched) when
    /// the click involves a pile the table does not hold as a column or fan.
    fn click(&mut self, spec: &Spec, places: &[Place]) -> bool {
        let held = |pile: &usize| matches!(places[*pile], Place::Column(_) | Place::Fan(_));
        let redeal = if self.stock.is_empty() {
            match &spec.stock_click.redeal {
                Some(redeal) if redeal.gather.iter().all(|k| held(k) || places[*k] == Place::Stock) => Some(redeal),
                _ => return false,
            }
        } else {
            None
        };
        let round = self.round + u32::from(redeal.is_some());
        let deal = spec.deal_in(round);
        let deals = redeal.is_none_or(|redeal| redeal.deal_after);
        if deals && !deal.order.iter().all(held) {
            return false;
        }
        // Whether each fan's top card lies face up: unknown (None) until the click changes it.
        let mut top_up: [Option<bool>; MAX_PILES] = [None; MAX_PILES];
        if let Some(redeal) = redeal {
            for &k in &redeal.gather {
                let pile = match places[k] {
                    Place::Column(j) => &mut self.columns[j],
                    Place::Fan(j) => &mut self.fans[j],
                    _ => continue,
                };
                self.stock.extend(pile.iter().rev().map(|&card| face_down(card)));
                pile.clear();
            }
        }
        self.round = round;
        if deals {
            let packets = deal.passes * deal.order.len();
            for n in 0..packets {
                let k = deal.order[n % deal.order.len()];
                let face_down = deal.face_down.contains(&k);
                for _ in 0..deal.packet {
                    let Some(card) = self.stock.pop() else { break };
                    match places[k] {
                        Place::Column(j) => self.columns[j].push(face_up(card)),
                        Place::Fan(j) => {
                            self.fans[j].push(face_up(card));
                            top_up[j] = Some(!face_down);
                        }
                        _ => unreachable!("checked above"),
                    }
                }
            }
            if self.stock.is_empty() {
                for &k in &deal.face_up_when_stock_empties {
                    if let Place::Fan(j) = places[k] {
                        top_up[j] = Some(true);
                    }
                }
            }
        }
        let was_open = self.fans_open;
        self.fans_open = self.fans.iter().enumerate().any(|(j, fan)| !fan.is_empty() && top_up[j].unwrap_or(was_open));
        true
    }

    /// Makes `out` the playout's position as a board (Python's `_as_state`): `root`'s other
    /// piles, the lanes as their cards, the reserve face down until it opens.
    fn board_into(&self, gd: &GrandDuchess, root: &Board, out: &mut Board) {
        out.rebuild(root.piles(), self.round, root.base, |k, cards| {
            if k == gd.stock {
                cards.extend_from_slice(&self.stock);
            } else if let Some(suit) = gd.up.iter().position(|&up| up == k) {
                let base = suit as u8 * 13;
                cards.extend((0..self.ups[suit] as u8).map(|r| base + r));
            } else if let Some(suit) = gd.down.iter().position(|&down| down == k) {
                let base = suit as u8 * 13;
                cards.extend((0..self.downs[suit] as u8).map(|r| base + 12 - r));
            } else if let Some(j) = gd.tableau.iter().position(|&i| i == k) {
                cards.extend_from_slice(&self.columns[j]);
            } else if let Some(j) = gd.reserve.iter().position(|&i| i == k) {
                let fan = &self.fans[j];
                if self.fans_open {
                    cards.extend_from_slice(fan);
                } else {
                    cards.extend(fan.iter().map(|&card| face_down(card)));
                }
            } else {
                cards.extend_from_slice(root.pile(k));
            }
        });
    }
}

/// The buffers of one probe's playouts, reused from one playout and deal to the next.
struct Scratch {
    table: Table,
    line: Vec<Move>,
    places: Vec<Place>,
    choices: Vec<Choice>,
    board: Board,
    after: Board,
}

impl Searcher<'_> {
    /// Probe `attempt` from `root`: playouts until one wins or about `playouts.steps` moves
    /// are played; the winning line if any, and the moves played (the search counts them).
    pub(super) fn playouts(&self, gd: &GrandDuchess, playouts: &Playouts, root: &Board, attempt: u64) -> (Option<Vec<Move>>, u64) {
        let seed = u64::from(crc32((0..root.piles()).map(|k| root.pile(k)))) * 7919 + u64::from(root.round) * 101 + attempt;
        let mut random = PyRandom::new(seed);
        let (mut steps, mut played) = (0u64, 0u64);
        let mut count = attempt * 7;
        let mut scratch =
            Scratch {
                table: Table::read(gd, root),
                line: Vec::new(),
                places: places(gd, root.piles()),
                choices: Vec::new(),
                board: Board::default(),
                after: Board::default(),
            };
        while steps < playouts.steps {
            let hold = playouts.holds[(count % playouts.holds.len() as u64) as usize];
            let (line, length) = self.playout(gd, root, &mut random, hold, &mut scratch);
            played += length;
            if line.is_some() {
                return (line, played);
            }
            steps += length + 1;
            count += 1;
        }
        (None, played)
    }

    /// One random game from `root` (Python's `_playout`): a random foundation move each
    /// time, or a deal with chance `hold`; in the last round a card whose suit's lanes are
    /// fixed goes first. The line if it wins, and its length.
    fn playout(
        &self,
        gd: &GrandDuchess,
        root: &Board,
        random: &mut PyRandom,
        hold: f64,
        scratch: &mut Scratch,
    ) -> (Option<Vec<Move>>, u64) {
        let Scratch { table, line, places, choices, board, after } = scratch;
        table.reread(gd, root);
        let fixed = if gd.transfers { 14 } else { 13 };
        let columns = gd.tableau.len();
        let mut left = table.stock.len()
            + table.columns.iter().map(Vec::len).sum::<usize>()
            + table.fans.iter().map(Vec::len).sum::<usize>();
        line.clear();
        while left > 0 {
            choices.clear();
            let (ups, downs) = (&table.ups, &table.downs);
            let mut offer = |card: u8, pile: usize, index: Option<usize>| {
                let (suit, rank) = (usize::from(card / 13), usize::from(card % 13));
                if ups[suit] == rank {
                    choices.push((0, pile, index, suit));
                }
                if 12 - downs[suit] as i32 == rank as i32 {
                    choices.push((1, pile, index, suit));
                }
            };
            for (j, column) in table.columns.iter().enumerate() {
                if let Some(&card) = column.last() {
                    offer(card, j, None);
                }
            }
            if table.fans_open {
                for (j, fan) in table.fans.iter().enumerate() {
                    let top = fan.len().saturating_sub(1);
                    for (k, &card) in fan.iter().enumerate() {
                        offer(card, columns + j, (k < top).then_some(k));
                    }
                }
            }
            let mut forced = None;
            if table.round >= gd.last_round {
                forced = choices.iter().copied().find(|c| table.ups[c.3] + table.downs[c.3] >= fixed);
            }
            let can_deal = !table.stock.is_empty() || table.round < gd.last_round;
            if forced.is_none() && !choices.is_empty() && !(can_deal && hold != 0.0 && random.random() < hold) {
                forced = Some(choices[random.randrange(0, choices.len() as u32) as usize]);
            }
            if let Some((lane, j, k, suit)) = forced {
                let target = if lane == 1 { gd.down[suit] } else { gd.up[suit] };
                if j < columns {
                    table.columns[j].pop();
                    line.push(card_move(gd.tableau[j], target, None));
                } else {
                    let fan = &mut table.fans[j - columns];
                    line.push(card_move(gd.reserve[j - columns], target, k.map(|k| k as u16)));
                    fan.remove(k.unwrap_or(fan.len() - 1));
                }
                if lane == 1 {
                    table.downs[suit] += 1;
                } else {
                    table.ups[suit] += 1;
                }
                left -= 1;
                continue;
            }
            if !can_deal {
                return (None, line.len() as u64);
            }
            line.push(Move::Deal);
            if !table.click(&self.full.game, places) {
                table.board_into(gd, root, board);
                self.apply_into(board, Move::Deal, after);
                table.reread(gd, after);
            }
        }
        let length = line.len() as u64;
        (Some(line.clone()), length)
    }
}
