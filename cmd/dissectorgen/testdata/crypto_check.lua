-- Runs the crypto section of a generated dnetwork.lua (arg[1]) outside Wireshark, with the
-- Lua it is started with: on Lua 5.3 or newer without bit32 this checks the fallback bit
-- operations. Prints one line "name got want" per known-answer vector.
local src = io.open(arg[1]):read("a")
local crypto = assert(src:match("(%-%- Bit operations.-)%-%- The dissectors%."), "no crypto section")
local vectors = [[
local function tvb_of(s)
	return setmetatable({}, { __call = function(_, i)
		return { uint = function() return s:byte(i + 1) end }
	end })
end
local function hex(t, from, to)
	local o = {}
	for i = from or 1, to or #t do
		o[#o + 1] = string.format("%02x", t[i])
	end
	return table.concat(o)
end
local function bytes(s)
	local t = {}
	for i = 1, #s do
		t[i] = s:byte(i)
	end
	return t
end
-- CRC-32C check value
print("crc32c", string.format("%08x", crc32c(tvb_of("123456789"), 0, 9)), "e3069283")
-- FIPS-197 appendix C.1
local k, st = {}, {}
local c = { 0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30, 0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4, 0xc5, 0x5a }
for i = 0, 15 do
	k[i], st[i] = i, c[i + 1]
end
aes.decrypt(st, aes.expand(k))
print("aes128", hex(st, 0, 15), "00112233445566778899aabbccddeeff")
-- FIPS 180-2 SHA-256("abc"); RFC 4231 test case 2
print("sha256", hex(sha.digest(bytes("abc"))), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
print("hmac", hex(sha.hmac(bytes("Jefe"), bytes("what do ya want for nothing?"))),
	"5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
]]
assert(load(crypto .. vectors))()
