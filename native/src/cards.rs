//! Cards as bytes, as kibitz's Python core keeps them.
//!
//! A card's identity is `suit * 13 + rank` (0..51: suits clubs, spades, hearts,
//! diamonds; ranks ace 0 to king 12). Inside a pile a card may carry [`FACE_DOWN`].

use crate::position::Cards;

/// Bit set on a card lying face down in a pile.
pub const FACE_DOWN: u8 = 64;
/// Mask that clears [`FACE_DOWN`].
pub const IDENTITY: u8 = 63;
/// Distinct card identities.
pub const IDENTITIES: usize = 52;

/// The card turned face up (bytes from 128 up are left alone, as Python's table does).
#[inline]
pub fn face_up(card: u8) -> u8 {
    if card < 128 {
        card & !FACE_DOWN
    } else {
        card
    }
}

/// The card turned face down (bytes from 64 up are left alone, as Python's table does).
#[inline]
pub fn face_down(card: u8) -> u8 {
    if card < 64 {
        card | FACE_DOWN
    } else {
        card
    }
}

/// Whether the card lies face down.
#[inline]
pub fn is_face_down(card: u8) -> bool {
    card & FACE_DOWN != 0
}

/// The rank of a byte as Python's `byte % 13` reads it (0 = ace .. 12 = king for a face-up card).
#[inline]
pub fn rank(card: u8) -> u8 {
    card % 13
}

/// Takes `n` cards from the top of `stock` (fewer if it runs out), turned face up, first
/// dealt first; the stock keeps the rest.
pub fn deal_cards(stock: &mut Cards, n: usize) -> Cards {
    let keep = stock.len().saturating_sub(n);
    let dealt = stock[keep..].iter().rev().map(|&c| face_up(c)).collect();
    stock.truncate(keep);
    dealt
}

/// A new stock from piles gathered in turn, each taken from its top and turned face down:
/// the first pile's top card ends at the bottom.
pub fn gather_face_down<'a>(piles: impl IntoIterator<Item = &'a [u8]>) -> Cards {
    let mut stock = Cards::new();
    for pile in piles {
        stock.extend(pile.iter().rev().map(|&c| face_down(c)));
    }
    stock
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dealing_takes_from_the_top_face_up() {
        let mut stock = Cards::from_slice(&[1 | FACE_DOWN, 2 | FACE_DOWN, 3 | FACE_DOWN]);
        assert_eq!(deal_cards(&mut stock, 2).as_slice(), [3, 2]);
        assert_eq!(stock.as_slice(), [1 | FACE_DOWN]);
        assert_eq!(deal_cards(&mut stock, 4).as_slice(), [1]);
        assert!(stock.is_empty());
        assert!(deal_cards(&mut stock, 1).is_empty());
    }

    #[test]
    fn gathering_puts_the_first_top_card_at_the_bottom() {
        let stock = gather_face_down([&[1u8, 2][..], &[3u8][..]]);
        assert_eq!(stock.as_slice(), [2 | FACE_DOWN, 1 | FACE_DOWN, 3 | FACE_DOWN]);
    }

    #[test]
    fn face_changes_leave_high_bytes_alone() {
        assert_eq!(face_up(5 | FACE_DOWN), 5);
        assert_eq!(face_down(5), 5 | FACE_DOWN);
        assert_eq!(face_down(70), 70);
        assert_eq!(face_up(200), 200);
    }
}
