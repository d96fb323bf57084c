-- The calls of transcript_tool_uses whose copies (blocks of one id in one session) differ in what the
-- pass read of them (tool, skill, path, command, input keys): how many, and the first by file, record
-- and block, with one copy that differs (each with its file's absolute path), for a warning. The
-- first copy in transcript order counts (tables.sql).
select count(*) as n,
       arg_min({'abs': f.abs, 'rec': t.rec, 'id': t.tool_use_id, 'name': t.name,
                'other_abs': o.abs, 'other_rec': t.differs.rec, 'other_name': t.differs.name},
               {'file': t.file, 'rec': t.rec, 'block': t.block}) as first
from transcript_tool_uses as t
join scan_files as f on f.file = t.file
join scan_files as o on o.file = t.differs.file
where t.differs is not null
having count(*) > 0
