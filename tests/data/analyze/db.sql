CREATE TABLE singer(singer_id INTEGER PRIMARY KEY, name TEXT NOT NULL, country TEXT, age INT, born TEXT);
INSERT INTO singer VALUES (1,'Ann','France',25,'1999-01-02'),(2,'Bob','Spain',31,'1993-05-06'),(3,'Cid','France',40,'1984-07-08');
CREATE TABLE concert(concert_id INTEGER PRIMARY KEY, singer_id INT, year INT);
INSERT INTO concert VALUES (1,1,2014),(2,3,2015);
