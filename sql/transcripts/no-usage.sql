-- The responses of transcript_messages none of whose lines has usage (message.usage missing or null):
-- how many, and the first by file and record (its file's absolute path), for a warning. Their token
-- counts and cost are NULL: a count of 0 would pass for one.
select count(*) as n, arg_min(f.abs, {'file': m.file, 'rec': m.rec}) as abs, arg_min(m.rec, {'file': m.file, 'rec': m.rec}) as rec
from transcript_messages as m
join scan_files as f using (file)
where m.no_usage
having count(*) > 0
