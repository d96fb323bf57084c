-- The instant an RFC 3339 timestamp names (a date, T or a space, a time, Z or an offset of at most
-- ±23:59); NULL for any other string. DuckDB's cast alone also takes "infinity", "epoch", a bare
-- date, zone names, "+09", 24:00 and offsets such as +25:00 or +05:99, which name no instant a
-- harness or Claude Code writes. A leap second (:60) is no time either: neither DuckDB nor
-- JavaScript (git's order) reads one. T and Z are upper case, as both write them: RFC 3339 allows t and z,
-- which DuckDB's cast (and so every query's) reads as no time.
create or replace temp macro omg_rfc3339(s) as
    case when regexp_full_match(s, '[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])[T ]([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]([.][0-9]+)?(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])')
         then try_cast(s as TIMESTAMPTZ) end;
