//! Applying moves: card moves with their after-move effects, and clicks on the stock.

use crate::cards::{deal_cards, face_up, gather_face_down, rank, FACE_DOWN};
use crate::generate::{CardMove, Move};
use crate::position::{Cards, Edit, Position};
use crate::spec::{AfterMove, Deal, Kind, RedealNeeds, Spec};

/// The position after `mv`, which must be legal in `position`; `None` for a click on the
/// stock that is not allowed.
pub fn apply<'a>(spec: &Spec, position: &Position<'a>, mv: Move) -> Option<Edit<'a>> {
    match mv {
        Move::Cards(cards) => Some(move_cards(spec, position, cards)),
        Move::Deal => click(spec, position),
    }
}

/// The position after a card move (assumed legal), with the game's after-move effects.
pub fn move_cards<'a>(spec: &Spec, position: &Position<'a>, mv: CardMove) -> Edit<'a> {
    let mut edit = Edit::of(position);
    let (source, target) = (usize::from(mv.source), usize::from(mv.target));
    let pile = position.piles[source];
    let (rest, moving): (Cards, &[u8]) = match mv.index {
        Some(index) => {
            let index = usize::from(index);
            let mut rest = Cards::with_capacity(pile.len() - 1);
            rest.extend_from_slice(&pile[..index]);
            rest.extend_from_slice(&pile[index + 1..]);
            (rest, &pile[index..=index])
        }
        None => {
            let keep = pile.len() - usize::from(mv.count);
            (Cards::from_slice(&pile[..keep]), &pile[keep..])
        }
    };
    edit.set(source, rest);
    let onto = edit.pile_mut(target);
    if source == spec.stock {
        onto.extend(moving.iter().map(|&card| face_up(card)));
    } else {
        onto.extend_from_slice(moving);
    }
    match &spec.after_move {
        Some(AfterMove::ChooseBase) if edit.base.is_none() && spec.kinds[target] == Kind::Foundation => {
            edit.base = edit.pile(target).last().map(|&card| rank(card));
        }
        Some(AfterMove::Refill { piles, count }) if piles.contains(&source) && edit.pile(source).is_empty() => {
            let dealt = deal_cards(edit.pile_mut(spec.stock), *count);
            edit.set(source, dealt);
        }
        _ => {}
    }
    edit
}

/// Whether the stock may be clicked (without making the click).
pub fn can_click(spec: &Spec, position: &Position) -> bool {
    let click = &spec.stock_click;
    if click.needs_base && position.base.is_none() {
        return false;
    }
    if !position.piles[spec.stock].is_empty() {
        return true;
    }
    match &click.redeal {
        None => false,
        Some(redeal) => {
            position.round <= spec.redeals
                && match redeal.needs {
                    RedealNeeds::CardsToGather => redeal.gather.iter().any(|&pile| !position.piles[pile].is_empty()),
                    RedealNeeds::GameNotWon => !position.is_won(spec),
                }
        }
    }
}

/// The position after a click on the stock: a deal, or a redeal (and the new round's deal);
/// `None` when no click is allowed.
pub fn click<'a>(spec: &Spec, position: &Position<'a>) -> Option<Edit<'a>> {
    if !can_click(spec, position) {
        return None;
    }
    let mut edit = Edit::of(position);
    if position.piles[spec.stock].is_empty() {
        let redeal = spec.stock_click.redeal.as_ref()?;
        let stock = gather_face_down(redeal.gather.iter().map(|&pile| position.piles[pile]));
        for &pile in &redeal.gather {
            edit.set(pile, Cards::new());
        }
        edit.set(spec.stock, stock);
        edit.round += 1;
        if !redeal.deal_after {
            return Some(edit);
        }
    }
    deal(spec.deal_in(edit.round), spec.stock, &mut edit);
    Some(edit)
}

/// One deal from the stock, as far as it goes.
fn deal(deal: &Deal, stock: usize, edit: &mut Edit) {
    for _ in 0..deal.passes {
        for &pile in &deal.order {
            let mut dealt = deal_cards(edit.pile_mut(stock), deal.packet);
            if deal.face_down.contains(&pile) {
                dealt.iter_mut().for_each(|card| *card |= FACE_DOWN);
            }
            edit.pile_mut(pile).extend_from_slice(&dealt);
        }
    }
    if edit.pile(stock).is_empty() {
        for &pile in &deal.face_up_when_stock_empties {
            if edit.pile(pile).iter().any(|&card| face_up(card) != card) {
                edit.pile_mut(pile).iter_mut().for_each(|card| *card = face_up(*card));
            }
        }
    }
}
