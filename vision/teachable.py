"""The faces of a game a group teaches the camera: one per kind of card that plays alike.

A game's ``card_faces()`` lists every printed face by id; several may be identical in play
(Jackpot Payout's starting Grapes, the Intermediate Grapes worth 1 coin and the Expert one:
same symbols, same coins, no ability; Mega Jackpot's faces differ by their reel-side back, which
matters, so they stay apart). Those are one face to teach: a photo of any of them teaches all.

:func:`teachable_faces` is what the "Teach cards" screen and ``companion vision enroll`` ask
for: each face's human name, its symbols and the card ids it stands for. The first id is the
face's ``face_id``: the taught-face store files pictures under it and the reader reports it.

>>> [f.name for f in teachable_faces("bandit")][:3]
['Cherry', 'Plum', 'Bell']
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion.errors import UserError


@dataclass(frozen=True)
class TeachableFace:
    """One face to teach: ``name`` for people, ``face_id`` for files, ``card_ids`` it covers."""

    face_id: str
    name: str
    symbols: tuple[str, ...]
    card_ids: tuple[str, ...]
    coins: int | None = None
    ability: str | None = None
    back: tuple[str, ...] = ()

    def label(self) -> str:
        """``name [id]`` as the CLI prints it (the id is what commands take)."""
        return f"{self.name} [{self.face_id}]"


def _play_key(face: object) -> tuple[object, ...]:
    """What the rules look at: symbols, the back when it matters, coins and the ability."""
    return (
        getattr(face, "symbols", ()),
        getattr(face, "back", ()),
        getattr(face, "coins", None),
        getattr(face, "ability", None),
    )


def teachable_faces(game_id: str) -> list[TeachableFace]:
    """The faces of ``game_id`` to teach, in the game's own order, look-alikes in play merged.

    Names are the game's card names; when two faces to teach share a name (Grapes worth 1, 2, 3
    or 4 coins), the coins, the ability or the back are added until every name is distinct.
    """
    from companion.engine import all_games

    games = all_games()
    if game_id not in games:
        raise UserError(f"no game '{game_id}' (games: {', '.join(sorted(games))})")
    groups: dict[tuple[object, ...], list[object]] = {}
    for face in games[game_id].card_faces():
        groups.setdefault(_play_key(face), []).append(face)
    faces = []
    for members in groups.values():
        first = members[0]
        faces.append(
            TeachableFace(
                face_id=str(first.id),
                name=str(getattr(first, "name", "") or first.id),
                symbols=tuple(getattr(first, "symbols", ())),
                card_ids=tuple(str(m.id) for m in members),
                coins=getattr(first, "coins", None),
                ability=getattr(first, "ability", None),
                back=tuple(getattr(first, "back", ())),
            )
        )
    return _distinct_names(game_id, faces)


def _symbol_names(game_id: str, symbols: tuple[str, ...]) -> str:
    from companion.art import symbol_label

    names = []
    for symbol in symbols:
        try:
            names.append(symbol_label(game_id, symbol))
        except KeyError:
            names.append(symbol.replace("-", " ").capitalize())
    return " / ".join(names)


def _distinct_names(game_id: str, faces: list[TeachableFace]) -> list[TeachableFace]:
    """Add what tells same-named faces apart: their symbols, then coins, then the back."""

    def coins(face: TeachableFace) -> str:
        return "" if face.coins is None else f"{face.coins} coin{'s' if face.coins != 1 else ''}"

    details = (
        lambda face: _symbol_names(game_id, face.symbols),
        coins,
        lambda face: _symbol_names(game_id, face.back),
    )
    by_name: dict[str, list[int]] = {}
    for index, face in enumerate(faces):
        by_name.setdefault(face.name, []).append(index)
    names = [face.name for face in faces]
    for indices in by_name.values():
        if len(indices) < 2:
            continue
        extra: list[list[str]] = [[] for _ in indices]
        for detail in details:
            values = [detail(faces[i]) for i in indices]
            if len(set(values)) > 1:
                for parts, value in zip(extra, values, strict=True):
                    if value and value.lower() != faces[indices[0]].name.lower():
                        parts.append(value)
            labels = [", ".join(parts) for parts in extra]
            if len(set(labels)) == len(labels):
                break
        for index, parts in zip(indices, extra, strict=True):
            names[index] = f"{faces[index].name} ({', '.join(parts)})" if parts else faces[index].name
    return [
        replace(face, name=name if names.count(name) == 1 else f"{name} #{face.face_id}")
        for face, name in zip(faces, names, strict=True)
    ]


def face_for(game_id: str, card_id: str) -> TeachableFace:
    """The face to teach that ``card_id`` (any id it covers, or its name) belongs to."""
    faces = teachable_faces(game_id)
    for face in faces:
        if card_id in face.card_ids:
            return face
    lowered = card_id.strip().lower()
    named = [face for face in faces if face.name.lower() == lowered]
    if len(named) == 1:
        return named[0]
    listing = ", ".join(face.label() for face in faces[:12])
    more = ""
    if len(faces) > 12:
        more = f" and {len(faces) - 12} more (see 'companion vision enrolled {game_id} --all')"
    raise UserError(f"{game_id} has no card '{card_id}'; its cards: {listing}{more}")


def face_name(game_id: str, face_id: str) -> str:
    """The name people know ``face_id`` of ``game_id`` by; the id itself for a folder that is no
    face (or no game) of ours."""
    try:
        faces = teachable_faces(game_id)
    except UserError:
        return face_id
    return next((face.name for face in faces if face.face_id == face_id), face_id)
