"""Dashboard sessions: who signed in and what GitHub said they may see, by an unguessable id (the cookie holds only
that id); reached through security-definer functions, like delivery claims, before any tenant is known."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from core.db import Database

ACCESS_SECONDS = 3600  # what GitHub said a person may see is asked again after this: access can be taken away

Access = dict[int, dict[str, str]]  # installation → repository → the person's role there


@dataclass(frozen=True)
class SignedIn:
    login: str
    access: Access


class Sessions:
    def __init__(self, db: Database):
        self.db = db

    def save(self, sid: str, login: str, access: Access, ttl_seconds: int = ACCESS_SECONDS) -> None:
        with self.db.system() as conn:
            conn.execute("SELECT memfix_session_save(%s, %s, %s::jsonb, %s)",
                         (sid, login, json.dumps({str(k): v for k, v in access.items()}), ttl_seconds))

    def load(self, sid: str) -> SignedIn | None:
        with self.db.system() as conn:
            row = conn.execute("SELECT * FROM memfix_session_load(%s)", (sid,)).fetchone()
        return SignedIn(row["login"], {int(k): v for k, v in row["access"].items()}) if row else None

    def end(self, sid: str) -> None:
        with self.db.system() as conn:
            conn.execute("SELECT memfix_session_end(%s)", (sid,))
