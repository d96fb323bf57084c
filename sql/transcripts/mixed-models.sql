-- The responses of transcript_messages whose lines name different models (a message.id reused by another
-- model, or written so): how many, and the first by file and record (its file's absolute path), for a
-- warning. Each is counted once, under the model of its final snapshot.
select count(*) as n, arg_min(f.abs, {'file': m.file, 'rec': m.rec}) as abs, arg_min(m.rec, {'file': m.file, 'rec': m.rec}) as rec
from transcript_messages as m
join scan_files as f using (file)
where m.mixed_models
having count(*) > 0
