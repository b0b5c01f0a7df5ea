"""One suite, both backends (MemoryStore and RedisStore on a real redis-server): sessions, keys, students,
questions, votes, reveals, the tally, bounds and the failed-join limit (docs/class-session.md)."""
from __future__ import annotations

import time

import pytest

from olc_ui.classroom import codes
from olc_ui.classroom.store import FAILED_JOINS_PER_WINDOW, Bound, Gone, Refused

Q = {"qid": "q1", "round": 4, "page": "perceptron", "text": "A mistake at round 4?",
     "choices": [{"id": "yes", "label": "Yes, a mistake"}, {"id": "no", "label": "No mistake"}]}


def test_create_then_lookup(store):
    code, key = store.create("perceptron", "gamma=0.1")
    assert codes.normalise(code) == code and len(key) >= 43
    assert store.lookup(code) == "ok"
    other = next(c for c in ("ABC234", "ZZZ999", "HJK234") if c != code)
    assert store.lookup(other) == "unknown"
    assert len({store.create("perceptron", "")[0] for _ in range(20)} | {code}) == 21


def test_only_the_right_key_is_the_lecturer(store):
    code, key = store.create("perceptron", "")
    other_code, other_key = store.create("winnow", "")
    assert store.check_key(code, key)
    assert not store.check_key(code, other_key)
    assert not store.check_key(code, key[:-1] + ("A" if key[-1] != "A" else "B"))
    assert not store.check_key(code, "")
    assert not store.check_key(code, None)
    assert not store.check_key("ABC234" if code != "ABC234" else "ABC235", key)


def test_ended_and_idle_sessions_expire(make_store):
    store = make_store(idle_s=1.0)
    a, key_a = store.create("perceptron", "")
    b, _ = store.create("perceptron", "")
    store.end(a)
    assert store.lookup(a) == "expired"
    assert not store.check_key(a, key_a)
    with pytest.raises(Gone):
        store.join(a, None)
    time.sleep(0.6)
    store.touch(b)               # lecturer activity keeps b alive past its first second
    time.sleep(0.6)
    assert store.lookup(b) == "ok"
    time.sleep(1.2)
    store.purge()
    assert store.lookup(b) == "expired"
    with pytest.raises(Gone):
        store.set_state(b, {"page": "perceptron"})


def test_join_and_return_with_the_same_sid(store):
    code, _ = store.create("perceptron", "")
    sid1, n1, new1 = store.join(code, None)
    sid2, n2, new2 = store.join(code, "made-up-sid")      # an unknown sid is a new student
    assert (n1, new1, n2, new2) == (1, True, 2, True) and sid1 != sid2 and sid2 != "made-up-sid"
    assert store.join(code, sid1) == (sid1, 2, False)     # a returning student is not counted twice
    assert store.snapshot(code)["joined"] == 2


def test_state_carries_a_sequence_number(store):
    code, _ = store.create("perceptron", "")
    assert store.snapshot(code)["state"] is None
    s1 = store.set_state(code, {"page": "perceptron", "query": "", "run": "r", "position": 1, "playing": False,
                                "asking": None})
    s2 = store.set_state(code, {**s1, "position": 2})
    assert (s1["seq"], s2["seq"]) == (1, 2) and s2["at"] >= s1["at"]
    snap = store.snapshot(code)
    assert snap["state"]["position"] == 2 and snap["state"]["seq"] == 2


def test_one_vote_per_student_a_change_replaces_it(store):
    code, _ = store.create("perceptron", "")
    a, _, _ = store.join(code, None)
    b, _, _ = store.join(code, None)
    q = store.open_question(code, Q)
    assert (q["answered"], q["joined"]) == (0, 2)
    assert store.vote(code, a, "q1", "yes") == (1, 2)
    assert store.vote(code, a, "q1", "no") == (1, 2)      # changed: still one vote
    assert store.vote(code, b, "q1", "no") == (2, 2)
    snap = store.snapshot(code, a)
    assert snap["question"]["mine"] == "no" and snap["question"]["answered"] == 2
    for bad in (("q2", "yes"), ("q1", "maybe"), ("q1", "")):
        with pytest.raises(Refused):
            store.vote(code, a, *bad)
    with pytest.raises(Refused):
        store.vote(code, "not-a-student", "q1", "yes")
    row, rows = store.reveal(code, "q1", "no")
    assert row["counts"] == {"yes": 0, "no": 2} and row["share"] == 1.0 and rows == [row]


def test_reveal_counts_share_and_tally(store):
    code, _ = store.create("perceptron", "")
    sids = [store.join(code, None)[0] for _ in range(5)]
    store.open_question(code, Q)
    for sid, answer in zip(sids[:4], ("yes", "yes", "yes", "no")):
        store.vote(code, sid, "q1", answer)
    with pytest.raises(Refused):
        store.reveal(code, "q1", "maybe")
    with pytest.raises(Refused):
        store.reveal(code, "q9", "yes")
    row, rows = store.reveal(code, "q1", "yes")
    assert row == {"n": 1, "qid": "q1", "page": "perceptron", "round": 4, "text": Q["text"],
                   "choices": Q["choices"], "correct": "yes",
                   "correct_label": "Yes, a mistake", "counts": {"yes": 3, "no": 1}, "answered": 4, "joined": 5,
                   "share": 0.75}
    assert store.snapshot(code)["question"] is None          # revealed: closed
    with pytest.raises(Refused):
        store.vote(code, sids[4], "q1", "yes")
    store.open_question(code, {**Q, "qid": "q2", "round": 9})
    row2, rows = store.reveal(code, "q2", "no")              # nobody answered
    assert row2["share"] is None and row2["answered"] == 0 and row2["n"] == 2
    assert [r["qid"] for r in rows] == ["q1", "q2"] and store.snapshot(code)["tally"] == rows


def test_a_new_question_replaces_the_open_one_and_close_drops_it(store):
    code, _ = store.create("perceptron", "")
    sid, _, _ = store.join(code, None)
    store.open_question(code, Q)
    store.vote(code, sid, "q1", "yes")
    q2 = store.open_question(code, {**Q, "qid": "q2"})
    assert q2["answered"] == 0
    with pytest.raises(Refused):
        store.vote(code, sid, "q1", "yes")
    assert store.snapshot(code, sid)["question"]["mine"] is None
    assert not store.close_question(code, "q1")
    assert store.close_question(code, "q2")
    assert store.snapshot(code)["question"] is None and store.snapshot(code)["tally"] == []


def test_a_student_who_leaves_is_no_longer_counted_and_its_vote_goes(store):
    code, _ = store.create("perceptron", "")
    a, _, _ = store.join(code, None)
    b, _, _ = store.join(code, None)
    assert store.leave(code, b) == (1, None, True)            # no open question
    assert store.snapshot(code)["joined"] == 1
    c, joined, _ = store.join(code, None)
    assert joined == 2
    store.open_question(code, Q)
    store.vote(code, a, "q1", "yes")
    store.vote(code, c, "q1", "no")
    assert store.leave(code, c) == (1, ("q1", 1), True)       # its vote dropped with it
    assert store.leave(code, c) == (1, ("q1", 1), False)      # twice: nothing more
    assert store.leave(code, "never-joined") == (1, ("q1", 1), False)
    with pytest.raises(Refused):
        store.vote(code, c, "q1", "yes")                      # a left student does not vote
    back, joined, new = store.join(code, c)                   # coming back is a new join
    assert new and back != c and joined == 2
    row, _ = store.reveal(code, "q1", "yes")
    assert (row["counts"], row["answered"], row["joined"]) == ({"yes": 1, "no": 0}, 1, 2)
    store.end(code)
    with pytest.raises(Gone):
        store.leave(code, a)


def test_eyes(store):
    code, _ = store.create("perceptron", "")
    assert store.snapshot(code)["eyes"] is False
    store.set_eyes(code, True)
    assert store.snapshot(code)["eyes"] is True


def test_bounds_say_which_bound(make_store):
    store = make_store(max_sessions=2, max_students=2)
    code, _ = store.create("perceptron", "")
    store.create("perceptron", "")
    with pytest.raises(Bound, match="OLC_CLASS_MAX_SESSIONS") as exc:
        store.create("perceptron", "")
    assert "2 class sessions" in exc.value.why
    a, _, _ = store.join(code, None)
    store.join(code, None)
    with pytest.raises(Bound, match="OLC_CLASS_MAX_STUDENTS"):
        store.join(code, None)
    assert store.join(code, a)[1] == 2                     # a returning student still gets in
    store.end(code)
    store.create("perceptron", "")                         # an ended session frees its place


def test_failed_joins_are_limited_per_address(store):
    for _ in range(FAILED_JOINS_PER_WINDOW - 1):
        store.failed_join("10.0.0.1")
    assert not store.join_blocked("10.0.0.1")
    store.failed_join("10.0.0.1")
    assert store.join_blocked("10.0.0.1")
    assert not store.join_blocked("10.0.0.2")


def test_seed_creates_once(store):
    key = codes.new_key()
    store.seed("ABC234", key)
    store.seed("ABC234", codes.new_key())                  # a second process: the first key stays
    assert store.lookup("ABC234") == "ok" and store.check_key("ABC234", key)


def test_only_students_with_signs_of_life_are_counted(make_store):
    """Presence (issue 32 §7): a closed connection (depart) or one silent for ``present_s`` is not counted, nor its
    vote; a sign of life (alive) counts it again, its vote with it; a student who left is not made present."""
    store = make_store(beat_s=0.1)                       # present_s = 0.4 s
    code, _ = store.create("perceptron", "")
    a, _, _ = store.join(code, None)
    b, n, grew = store.join(code, None)
    assert (n, grew) == (2, True)
    assert store.join(code, b) == (b, 2, False)          # a second tab with the same id: one student
    store.open_question(code, Q)
    store.vote(code, a, "q1", "yes")
    store.vote(code, b, "q1", "no")
    assert store.depart(code, b) == (1, ("q1", 1), True)      # b's tab closed: b and its vote not counted
    assert store.depart(code, b) == (1, ("q1", 1), False)
    assert store.snapshot(code)["question"]["answered"] == 1 and store.snapshot(code, b)["question"]["mine"] == "no"
    assert store.alive(code, b) == (2, True)                  # back: counted, its vote too
    assert store.count(code) == (2, ("q1", 2))
    deadline = time.monotonic() + 0.3
    while time.monotonic() < deadline:                        # a renews, b falls silent
        store.alive(code, a)
        time.sleep(0.05)
    time.sleep(0.2)
    store.alive(code, a)
    assert store.count(code) == (1, ("q1", 1))
    row, _ = store.reveal(code, "q1", "yes")                  # the reveal counts the students present
    assert (row["counts"], row["answered"], row["joined"]) == ({"yes": 1, "no": 0}, 1, 1)
    assert store.leave(code, b)[2] and store.alive(code, b) == (1, False)   # left: not made present
    time.sleep(0.5)
    assert store.count(code) == (0, None) and store.snapshot(code)["joined"] == 0


def test_the_student_bound_counts_the_students_present(make_store):
    store = make_store(max_students=2, beat_s=0.1)
    code, _ = store.create("perceptron", "")
    a, _, _ = store.join(code, None)
    b, _, _ = store.join(code, None)
    store.depart(code, b)                                 # gone: its place is free
    c, n, _ = store.join(code, None)
    assert n == 2 and c not in (a, b)
    with pytest.raises(Bound, match="OLC_CLASS_MAX_STUDENTS"):
        store.join(code, None)
    assert store.join(code, a) == (a, 2, False)            # one present still gets back in
    store.depart(code, c)
    assert store.join(code, b)[0] != b                     # b was forgotten to make room: it comes back as new


def test_a_round_of_proposals_takes_any_move_and_shows_its_counts(store):
    """The class as the adversary (issue 35 §3): a round of proposals takes any short move from each joined student
    (one per student: a change replaces it), is shown (each distinct move with its count, the most proposed first;
    present students only) and closes; it is never revealed, and a question is never shown; nothing reaches the
    tally."""
    code, _ = store.create("perceptron", "")
    sids = [store.join(code, None)[0] for _ in range(4)]
    P = {"qid": "p1", "round": 3, "page": "perceptron", "text": "Your move", "choices": [], "kind": "propose"}
    opened = store.open_question(code, P)
    assert opened["kind"] == "propose" and opened["answered"] == 0 and opened["joined"] == 4
    for sid, move in zip(sids, ("16:60:1", "16:60:1", "-10:4:-1", "0:1:1")):
        store.vote(code, sid, "p1", move)
    store.vote(code, sids[3], "p1", "-10:4:-1")                  # changed: replaces
    assert store.snapshot(code, sids[0])["question"]["mine"] == "16:60:1"
    with pytest.raises(Refused):
        store.reveal(code, "p1", "16:60:1")
    with pytest.raises(Refused):
        store.show(code, "p9")
    got = store.show(code, "p1")
    assert got == {"qid": "p1", "counts": [["-10:4:-1", 2], ["16:60:1", 2]], "answered": 4, "joined": 4}
    assert store.snapshot(code)["question"] is None and store.snapshot(code)["tally"] == []
    with pytest.raises(Refused):
        store.vote(code, sids[0], "p1", "1:1:1")                 # shown: closed
    store.open_question(code, Q)
    with pytest.raises(Refused):
        store.show(code, "q1")                                    # a question is revealed, not shown
    assert store.snapshot(code)["question"]["qid"] == "q1"       # and stays open
