ÿþ€ garbage ‘ Ã( not utf-8
[31m
