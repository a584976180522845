"""The class store for replicas: Redis, which every replica reaches. A class is a few keys under ``bpe:class:CODE``
(hashes for the class, its students, their names' keys, the joins from each address, questions, reveals, and one
per question's votes). A join, a removal, a vote and a reveal are each one Lua script, so Redis runs them one at a
time: no vote slips in after the reveal or the removal, no join past the class's bounds. Every write gives the
class's keys ``KEEP_SECONDS`` to live, so a forgotten class leaves nothing behind.

>>> RedisClassStore("redis://localhost:6379/0").prefix("ABCDE")
'bpe:class:ABCDE'
"""

from __future__ import annotations

import secrets
from typing import cast

import redis

from live_class.records import FOLLOWED, ClassRecord, Question, followed_changes
from live_class.store import KEEP_SECONDS, ClassStore, Joining, JoinRequest, unavailable_as_problem

_NUMBERS = {"last_active": float, "step": int, "question": int}

# KEYS: the class's keys (class, students, joined, names, questions, revealed, addresses), then the question's votes.
# ARGV: the question's number, the student, the answer, the time, the lifetime in seconds.
_VOTE = """
if redis.call('HEXISTS', KEYS[5], ARGV[1]) == 0 or redis.call('HEXISTS', KEYS[6], ARGV[1]) == 1
    or redis.call('HEXISTS', KEYS[2], ARGV[2]) == 0 then
  return 0
end
redis.call('HSET', KEYS[8], ARGV[2], ARGV[3])
local last = tonumber(redis.call('HGET', KEYS[1], 'last_active') or '0')
if tonumber(ARGV[4]) > last then redis.call('HSET', KEYS[1], 'last_active', ARGV[4]) end
for _, key in ipairs(KEYS) do redis.call('EXPIRE', key, ARGV[5]) end
return 1
"""

# KEYS: the class's keys. ARGV: the student, the name, the time, the lifetime in seconds, the address ("": none), the
# most students, the most joins from one address (0: no bound), then the name's keys. Every check and the keeping
# are one script: joins at once cannot overfill the class nor share a name. The joining order is a sorted set scored
# by arrival (a hash has no order; times can tie), one past the latest (a removal leaves a gap).
_JOIN = """
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then return 'joined' end
if redis.call('HGET', KEYS[1], 'locked') == '1' then return 'locked' end
if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[6]) then return 'full' end
local counted = ARGV[5] ~= '' and tonumber(ARGV[7]) > 0
if counted and tonumber(redis.call('HGET', KEYS[7], ARGV[5]) or '0') >= tonumber(ARGV[7]) then
  return 'address spent'
end
for index = 8, #ARGV do
  if redis.call('HEXISTS', KEYS[4], ARGV[index]) == 1 then return 'name taken' end
end
for index = 8, #ARGV do redis.call('HSET', KEYS[4], ARGV[index], ARGV[1]) end
if counted then redis.call('HINCRBY', KEYS[7], ARGV[5], 1) end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
local latest = redis.call('ZRANGE', KEYS[3], -1, -1, 'WITHSCORES')
redis.call('ZADD', KEYS[3], latest[2] and tonumber(latest[2]) + 1 or 0, ARGV[1])
redis.call('HSET', KEYS[1], 'last_active', ARGV[3])
for _, key in ipairs(KEYS) do redis.call('EXPIRE', key, ARGV[4]) end
return 'joined'
"""

# KEYS: the class's keys. ARGV: the student, the prefix of the class's keys. Its votes are found in the script, on
# every question asked so far (one Redis server, not a cluster: keys named in a script are allowed there).
_REMOVE = """
if redis.call('HDEL', KEYS[2], ARGV[1]) == 0 then return 0 end
redis.call('ZREM', KEYS[3], ARGV[1])
local held = redis.call('HGETALL', KEYS[4])
for index = 1, #held, 2 do
  if held[index + 1] == ARGV[1] then redis.call('HDEL', KEYS[4], held[index]) end
end
for _, number in ipairs(redis.call('HKEYS', KEYS[5])) do
  redis.call('HDEL', ARGV[2] .. ':votes:' .. number, ARGV[1])
end
return 1
"""
# KEYS: the questions and the reveals. ARGV: the question's number.
_REVEAL = """
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
return redis.call('HSETNX', KEYS[2], ARGV[1], '1')
"""

# KEYS: the key's sorted set of counted actions, scored by time. ARGV: now, the most, the window in seconds, a name for
# this action. The key lives as long as its window, so what left it is forgotten.
_COUNT = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[3]))
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
redis.call('EXPIRE', KEYS[1], math.ceil(tonumber(ARGV[3])))
return 1
"""


@unavailable_as_problem(redis.RedisError, "Redis")
class RedisClassStore(ClassStore):
    """Classes in Redis at ``url`` (``redis://host:port/db``); the connection is made on first use."""

    def __init__(self, url: str):
        self.redis = redis.Redis.from_url(url, decode_responses=True, socket_timeout=5.0)
        self._vote = self.redis.register_script(_VOTE)
        self._reveal = self.redis.register_script(_REVEAL)
        self._join = self.redis.register_script(_JOIN)
        self._remove = self.redis.register_script(_REMOVE)
        self._count = self.redis.register_script(_COUNT)

    @staticmethod
    def prefix(code: str) -> str:
        return f"bpe:class:{code}"

    def _keys(self, code: str) -> list[str]:
        base = self.prefix(code)
        lists = ("students", "joined", "names", "questions", "revealed", "addresses")
        return [base, *(f"{base}:{name}" for name in lists)]

    def _keep(self, pipeline, code: str) -> None:
        for key in self._keys(code):
            pipeline.expire(key, KEEP_SECONDS)

    def create_class(self, record: ClassRecord) -> bool:
        key = self.prefix(record.code)
        if not self.redis.hsetnx(key, "teacher_hash", record.teacher_hash):
            return False
        fields = {"last_active": record.last_active, **{name: getattr(record, name) for name in FOLLOWED}}
        with self.redis.pipeline() as pipeline:
            pipeline.hset(key, mapping={name: _stored(value) for name, value in fields.items()})
            pipeline.expire(key, KEEP_SECONDS)
            pipeline.execute()
        return True

    def _hash(self, key: str) -> dict[str, str]:
        """A hash's fields and values: strings, as the client decodes every response."""
        return cast(dict[str, str], self.redis.hgetall(key))

    def class_record(self, code: str) -> ClassRecord | None:
        fields = self._hash(self.prefix(code))
        if "teacher_hash" not in fields or "ended" not in fields:  # unknown, or still being created
            return None
        values = {name: _NUMBERS.get(name, str)(value) for name, value in fields.items()}
        flags = {"ended": fields["ended"] == "1", "locked": fields.get("locked") == "1"}  # no lock: kept before locks
        return ClassRecord(code=code, **{**values, **flags})

    def update_class(self, code: str, last_active: float, **followed) -> None:
        changes = followed_changes(last_active, followed)
        with self.redis.pipeline() as pipeline:
            pipeline.hset(self.prefix(code), mapping={name: _stored(value) for name, value in changes.items()})
            self._keep(pipeline, code)
            pipeline.execute()

    def add_student(self, code: str, join: JoinRequest) -> Joining:
        bounds: list[str | int] = [join.address, join.most_students, join.most_from_address]
        arguments: list[str | int] = [join.student, join.name, _stored(join.last_active), KEEP_SECONDS, *bounds]
        arguments += join.name_keys
        return Joining(self._join(keys=self._keys(code), args=arguments))

    def remove_student(self, code: str, student: str) -> bool:
        return self._remove(keys=self._keys(code), args=[student, self.prefix(code)]) == 1

    def students(self, code: str) -> dict[str, str]:
        _, students, joined, *_ = self._keys(code)
        with self.redis.pipeline() as pipeline:
            pipeline.zrange(joined, 0, -1)
            pipeline.hgetall(students)
            order, names = pipeline.execute()
        return {student: names[student] for student in order if student in names}

    def put_question(self, code: str, question: Question) -> None:
        questions, revealed = self._keys(code)[4:6]
        with self.redis.pipeline() as pipeline:
            pipeline.hset(questions, str(question.number), question.to_json())
            pipeline.hdel(revealed, str(question.number))
            self._keep(pipeline, code)
            pipeline.execute()

    def questions(self, code: str) -> list[Question]:
        questions, revealed = self._keys(code)[4:6]
        with self.redis.pipeline() as pipeline:
            pipeline.hgetall(questions)
            pipeline.hgetall(revealed)
            bodies, reveals = pipeline.execute()
        found = [Question.from_json(body, revealed=number in reveals) for number, body in bodies.items()]
        return sorted(found, key=lambda question: question.number)

    def question(self, code: str, number: int) -> Question | None:
        questions, revealed = self._keys(code)[4:6]
        with self.redis.pipeline() as pipeline:
            pipeline.hget(questions, str(number))
            pipeline.hexists(revealed, str(number))
            body, was_revealed = pipeline.execute()
        return None if body is None else Question.from_json(body, revealed=bool(was_revealed))

    def vote(self, code: str, number: int, student: str, answer: str, last_active: float) -> bool:
        keys = [*self._keys(code), f"{self.prefix(code)}:votes:{number}"]
        return self._vote(keys=keys, args=[number, student, answer, _stored(last_active), KEEP_SECONDS]) == 1

    def reveal(self, code: str, number: int) -> bool:
        questions, revealed = self._keys(code)[4:6]
        return self._reveal(keys=[questions, revealed], args=[number]) == 1

    def votes(self, code: str, number: int) -> dict[str, str]:
        return self._hash(f"{self.prefix(code)}:votes:{number}")

    def count_in_window(self, key: str, now: float, most: int, seconds: float) -> bool:
        arguments: list[str | int] = [
            _stored(now),
            most,
            _stored(seconds),
            secrets.token_hex(8),
        ]  # two actions at one time: two names
        return self._count(keys=[f"bpe:rate:{key}"], args=arguments) == 1


def _stored(value) -> str:
    """A field as Redis keeps it: text, with a flag as "1" or "0".

    >>> _stored(True), _stored(3), _stored(2.5), _stored("x")
    ('1', '3', '2.5', 'x')
    """
    return ("1" if value else "0") if isinstance(value, bool) else str(value)
