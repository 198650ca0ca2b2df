"""Mega Jackpot at a real table: what the camera's readings mean, and which flip they show.

The mat has six zones: ``pile0``..``pile2`` (the reel piles, reel side up) above
``discard0``..``discard2`` (the discards, symbol side up). Vision names what it reads there:

- a discard's card by its face id, ``apple@apple-cherry`` (the symbol, then its reel side);
- a pile's top card by its printed reel side, ``apple/cherry`` (vision's marker file joins the
  two symbols with ``/``; the engine's reel side id is ``apple-cherry``, see :func:`side_of_back`).

A flip is a physical act: the player takes a pile's top card and lays it on a discard, symbol
side up. The card's face id names its reel side, so the pile it came from is a pile whose top
showed that reel side (:func:`infer_moves`); when several did, the pile whose zone changed is
the one; when that is still open, the flow asks the table.

>>> side_of_back("cherry/apple")
'apple-cherry'
>>> side_of_back("apple@apple-cherry") is None
True
>>> infer_moves({1: "apple@apple-cherry"}, ["cherry-genie", "apple-cherry", None], [30, 30, 0], set())
[((1, 1),)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import permutations

from companion.engine.games.mega_jackpot.components import SYMBOLS, side_id, split_face

#: One flip: (pile, discard) per card moved, lower pile first (the engine's ``flip`` order).
Moves = tuple[tuple[int, int], ...]


def pile_zone(pile: int) -> str:
    """The camera zone of reel pile ``pile`` (0-2)."""
    return f"pile{pile}"


def discard_zone(discard: int) -> str:
    """The camera zone of discard ``discard`` (0-2)."""
    return f"discard{discard}"


def side_of_back(card_id: str | None) -> str | None:
    """The engine's reel side id of a back as vision names it (``apple/cherry``), else None."""
    if not card_id or "/" not in card_id:
        return None
    parts = card_id.split("/")
    if len(parts) != 2 or not all(part in SYMBOLS for part in parts) or parts[0] == parts[1]:
        return None
    return side_id(parts[0], parts[1])


def is_face(card_id: str | None) -> bool:
    """True for a Jackpot card's symbol side as vision names it (``apple@apple-cherry``)."""
    if not card_id or "@" not in card_id:
        return False
    front, side = split_face(card_id)
    return front in SYMBOLS and front in side.split("-")


def face_side(card_id: str) -> str:
    """The reel side of a face id (``apple@apple-cherry`` -> ``apple-cherry``)."""
    return split_face(card_id)[1]


def describe_card(card_id: str) -> str:
    """A card as players name it: ``apple (apple/cherry reel)``, ``apple/cherry reel side``."""
    if is_face(card_id):
        front, side = split_face(card_id)
        return f"{front} ({side.replace('-', '/')} reel)"
    back = side_of_back(card_id)
    if back is not None:
        return f"a {back.replace('-', '/')} reel side"
    if card_id.startswith("start-"):
        return f"a {card_id[len('start-'):]}-point starting card"
    return card_id


def infer_moves(changed: Mapping[int, str], pile_tops: Sequence[str | None], pile_sizes: Sequence[int],
                piles_changed: set[int]) -> list[Moves]:
    """The flips that explain the new cards on the discards, best first.

    ``changed``: discard -> face id now on top; ``pile_tops``: the reel sides the piles showed
    before; ``piles_changed``: piles whose zone now shows something else (a sign the card came
    from there). Every returned flip moves each new card from a different pile whose top showed
    that card's reel side; only the flips using the most changed piles are returned (several
    means the camera cannot tell which pile: ask the table).
    """
    discards = sorted(changed)
    if not 1 <= len(discards) <= 2:
        return []
    open_piles = [p for p, side in enumerate(pile_tops) if side is not None and pile_sizes[p] > 0]
    found: list[tuple[int, Moves]] = []
    for piles in permutations(open_piles, len(discards)):
        if all(pile_tops[pile] == face_side(changed[d]) for pile, d in zip(piles, discards, strict=True)):
            moves = tuple(sorted((pile, d) for pile, d in zip(piles, discards, strict=True)))
            evidence = sum(1 for pile in piles if pile in piles_changed)
            found.append((evidence, moves))
    if not found:
        return []
    best = max(evidence for evidence, _ in found)
    return sorted({moves for evidence, moves in found if evidence == best})
