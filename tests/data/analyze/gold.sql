SELECT name FROM singer WHERE age > 20	t
SELECT name FROM singer WHERE age >= 30	t
SELECT name FROM singer WHERE age > 20	t
SELECT name FROM singer	t
SELECT name FROM singer	t
SELECT name FROM singer WHERE born LIKE '1990%'	t
SELECT name FROM singer	t
SELECT T1.name FROM singer AS T1 JOIN concert AS T2 ON T1.singer_id = T2.singer_id WHERE T2.year = 2014	t
SELECT count(*) FROM singer WHERE country = 'France'	t
