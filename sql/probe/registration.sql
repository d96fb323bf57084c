-- The registration tables, from the records of kind 'registration' (and notes.jsonl's):
-- registration_records, registered_arms, addenda, pilot_sessions, void_arms, conjuncts, budgets,
-- spawn_notes. One script, run by src/load/probe.ts.
create or replace table registration_records as
select probe, rel as file, rec, json ->> 'kind' as kind, json as record
from records where kind = 'registration';

-- Registration order: the pre-registration's files first, then each addendum's file by its number.
-- An arm an addendum registers need not repeat its number: its file (addendum-<n>.jsonl) has it.
create or replace table registered_arms as
with file_rank as (
    select distinct probe, file, omg_registration_place(file) as rank from registration_records
)
select a.probe, row_number() over (partition by a.probe order by f.rank, a.file, a.rec) as ordinal,
       t.arm, t.phase, t.n, t.trigger,
       coalesce(t.addendum, try_cast(regexp_extract(a.file, '^registration/addendum-([0-9]+)\.jsonl$', 1) as BIGINT)) as addendum,
       t.replaces, t.what, a.file, a.rec, a.record
from (select probe, file, rec, record, from_json(record,
        '{"arm":"VARCHAR","phase":"VARCHAR","n":"BIGINT","trigger":"VARCHAR","addendum":"BIGINT","replaces":"VARCHAR","what":"VARCHAR"}') as t
      from registration_records where kind = 'arm') as a
join file_rank as f using (probe, file);

create or replace table addenda as
select probe, (record ->> 'n')::BIGINT as n, record ->> 'text' as text, file, record
from registration_records where kind = 'addendum';

create or replace table pilot_sessions as
select probe, unnest(from_json(record -> 'pilot', '["VARCHAR"]')) as session_id, n as addendum
from addenda where (record -> 'pilot') is not null;

create or replace table void_arms as
select probe, v.arm, v.reason, addendum from (
    select probe, n as addendum, unnest(from_json(record -> 'void', '[{"arm":"VARCHAR","reason":"VARCHAR"}]')) as v
    from addenda where (record -> 'void') is not null);

create or replace table conjuncts as
select probe, (record ->> 'n')::BIGINT as n, record ->> 'required' as required, record ->> 'check' as "check", file, rec, record
from registration_records where kind = 'conjunct';

create or replace table budgets as
select probe, (record ->> 'usd')::DOUBLE as usd, (record ->> 'spawns')::BIGINT as spawns, file, record
from registration_records where kind = 'budget';

-- Its file as the probe names it (notes.jsonl), as the registration tables name theirs: an absolute
-- path would change with where the probe sits, and a check reading it with it.
create or replace table spawn_notes as
select probe, json ->> 'session_id' as session_id, json ->> 'note' as note, rel as file, rec
from records where kind = 'notes';
