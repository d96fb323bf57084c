-- The calls of transcript_tool_uses with a copy (a block of the same id in the same session) that
-- differs in what the pass read of it (tool, skill, path, command, input keys): how many, and the
-- first by file, record and block (its file's absolute path), for a warning. The first copy in
-- transcript order counts (tables.sql).
select count(*) as n,
       arg_min({'abs': f.abs, 'rec': t.rec, 'id': t.tool_use_id, 'name': t.name}, {'file': t.file, 'rec': t.rec, 'block': t.block}) as first
from transcript_tool_uses as t
join scan_files as f on f.file = t.file
where t.differs
having count(*) > 0
