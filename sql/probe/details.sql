-- The tables of each spawn's details: tool_uses (of spawns that exist), skill_calls, and the items
-- of the arrays inside each row, numbered within the row: artifacts, markers, permission_denials,
-- model_usage. One script, run by src/load/probe.ts.
create or replace table tool_uses as
select r.probe, r.file_session as session_id, r.rec as ordinal,
       t.id as tool_use_id, t.name, t.input_keys, t.skill, t.agent_id, r.json as record
from (select *, from_json(json, '{"id":"VARCHAR","name":"VARCHAR","input_keys":"VARCHAR[]","skill":"VARCHAR","agent_id":"VARCHAR"}') as t
      from records where kind = 'tool_use') r
where exists (select 1 from spawns p where p.probe = r.probe and p.session_id = r.file_session)
order by r.probe, r.file_session, r.rec;

create or replace table skill_calls as
select r.probe, r.rec as ordinal, r.t.session_id, coalesce(r.t.arm, s.arm) as arm, r.t.tool_use_id, r.t.skill,
       r.t.is_error, r.t.result, r.json as record
from (select probe, rec, json, from_json(json, '{"session_id":"VARCHAR","arm":"VARCHAR","tool_use_id":"VARCHAR","skill":"VARCHAR","is_error":"BOOLEAN","result":"VARCHAR"}') as t
      from records where kind = 'skill_results') as r
left join spawns as s on s.probe = r.probe and s.session_id = r.t.session_id
order by r.probe, r.rec;

create or replace table artifacts as
select probe, session_id, i as ordinal, e ->> 'label' as label, e ->> 'path' as path, (e ->> 'exists')::BOOLEAN as present, e as record
from (select probe, session_id, unnest(l) as e, unnest(generate_series(1, len(l))) as i
      from (select probe, session_id, from_json(record -> 'artifacts', '["JSON"]') as l from spawns))
order by probe, session_id, ordinal;

create or replace table markers as
select probe, session_id, i as ordinal, e ->> 'label' as label, e ->> 'token' as token, e ->> 'file' as file, e ->> 'dir' as dir, e as record
from (select probe, session_id, unnest(l) as e, unnest(generate_series(1, len(l))) as i
      from (select probe, session_id, from_json(record -> 'markers', '["JSON"]') as l from spawns))
order by probe, session_id, ordinal;

create or replace table permission_denials as
select probe, session_id, i as ordinal, e ->> 'tool_name' as tool_name, e ->> 'tool_use_id' as tool_use_id, e -> 'tool_input' as tool_input, e as record
from (select probe, session_id, unnest(l) as e, unnest(generate_series(1, len(l))) as i
      from (select probe, session_id, from_json(envelope -> 'permission_denials', '["JSON"]') as l from spawns where envelope is not null))
order by probe, session_id, ordinal;

create or replace table model_usage as
select probe, session_id, i as ordinal, e.key as model,
       (e.value ->> 'costUSD')::DOUBLE as cost_usd,
       (e.value ->> 'inputTokens')::BIGINT as input_tokens,
       (e.value ->> 'outputTokens')::BIGINT as output_tokens,
       (e.value ->> 'cacheReadInputTokens')::BIGINT as cache_read_input_tokens,
       (e.value ->> 'cacheCreationInputTokens')::BIGINT as cache_creation_input_tokens,
       e.value as record
from (select probe, session_id, unnest(m) as e, unnest(generate_series(1, len(m))) as i
      from (select probe, session_id, map_entries(from_json(envelope -> 'modelUsage', '"MAP(VARCHAR, JSON)"')) as m
            from spawns where envelope is not null))
order by probe, session_id, ordinal;
