-- Rows and tool_use files that do not pair up, both directions at once: 'missing', a results row
-- without its tool_use file (file, rec, name = its session_id); 'orphan', a tool_use file (or .err)
-- without its row (name = its path in the probe).
select 'missing' as what, r.probe, r.file, r.rec, r.json ->> 'session_id' as name from records r
where r.kind = 'results' and not exists (
    select 1 from source_files s where s.probe = r.probe and s.kind = 'tool_use' and s.session_id = (r.json ->> 'session_id'))
union all
select 'orphan', s.probe, null, null, s.rel from source_files s
where s.kind in ('tool_use', 'tool_use_err')
  and not exists (select 1 from records r where r.kind = 'results' and r.probe = s.probe and (r.json ->> 'session_id') = s.session_id)
order by what, probe, file, rec, name
