-- Bit operations, CRC-32C, HMAC-SHA-256 and AES-128 decryption in plain Lua, for the
-- dnet checksum and tag and the world info ciphertext (Wireshark's Lua has no crypto).

-- bit32 is Lua 5.2's (Wireshark up to 4.2); a Wireshark on Lua 5.3 or newer may lack it,
-- and then its operators stand in (loaded from text: Lua 5.2 cannot parse them).
local bit = bit32
if not bit then
	bit = load([[
		local function fold(op, a, b, ...)
			if b == nil then
				return a & 0xffffffff
			end
			return fold(op, op(a, b), ...)
		end
		return {
			band = function(...) return fold(function(a, b) return a & b end, ...) end,
			bor = function(...) return fold(function(a, b) return a | b end, ...) end,
			bxor = function(...) return fold(function(a, b) return a ~ b end, ...) end,
			lshift = function(a, n) return (math.tointeger(a) << n) & 0xffffffff end,
			rshift = function(a, n) return (math.tointeger(a) & 0xffffffff) >> n end,
		}]])()
end

-- CRC-32C (Castagnoli, reflected 0x82f63b78), table-driven.
local crc32c_table = {}
for i = 0, 255 do
	local c = i
	for _ = 1, 8 do
		if bit.band(c, 1) ~= 0 then
			c = bit.bxor(bit.rshift(c, 1), 0x82f63b78)
		else
			c = bit.rshift(c, 1)
		end
	end
	crc32c_table[i] = c
end

local function crc32c(tvb, off, len)
	local c = 0xffffffff
	for i = off, off + len - 1 do
		c = bit.bxor(crc32c_table[bit.band(bit.bxor(c, tvb(i, 1):uint()), 0xff)], bit.rshift(c, 8))
	end
	return bit.bxor(c, 0xffffffff)
end

-- HMAC-SHA-256 of byte tables (1-based), for the dnet tag. The constants are the first
-- 32 bits of the fractional parts of the square roots (H0) and cube roots (K) of the
-- first primes, computed here.
local sha = {}
do
	local primes, n = {}, 2
	while #primes < 64 do
		local prime = true
		for _, p in ipairs(primes) do
			if p * p > n then
				break
			end
			if n % p == 0 then
				prime = false
				break
			end
		end
		if prime then
			primes[#primes + 1] = n
		end
		n = n + 1
	end
	local function frac32(x)
		return math.floor((x - math.floor(x)) * 4294967296)
	end
	local K, H0 = {}, {}
	for i = 1, 64 do
		local p = primes[i]
		local c = p ^ (1 / 3)
		c = c - (c * c * c - p) / (3 * c * c) -- one Newton step to full precision
		K[i] = frac32(c)
	end
	for i = 1, 8 do
		H0[i] = frac32(math.sqrt(primes[i]))
	end
	local function add(...)
		local s = 0
		for i = 1, select("#", ...) do
			s = s + select(i, ...)
		end
		return s % 4294967296
	end
	local function rrot(x, k)
		return bit.bor(bit.rshift(x, k), bit.lshift(x, 32 - k))
	end

	function sha.digest(msg)
		local m, n = {}, #msg
		for i = 1, n do
			m[i] = msg[i]
		end
		m[n + 1] = 0x80
		while #m % 64 ~= 56 do
			m[#m + 1] = 0
		end
		local bits = n * 8
		for i = 7, 0, -1 do
			m[#m + 1] = math.floor(bits / 2 ^ (8 * i)) % 256
		end
		local h = { H0[1], H0[2], H0[3], H0[4], H0[5], H0[6], H0[7], H0[8] }
		local w = {}
		for chunk = 0, #m - 1, 64 do
			for i = 0, 15 do
				local o = chunk + 4 * i
				w[i] = ((m[o + 1] * 256 + m[o + 2]) * 256 + m[o + 3]) * 256 + m[o + 4]
			end
			for i = 16, 63 do
				local a, b = w[i - 15], w[i - 2]
				local s0 = bit.bxor(rrot(a, 7), rrot(a, 18), bit.rshift(a, 3))
				local s1 = bit.bxor(rrot(b, 17), rrot(b, 19), bit.rshift(b, 10))
				w[i] = add(w[i - 16], s0, w[i - 7], s1)
			end
			local a, b, c, d, e, f, g, hh = h[1], h[2], h[3], h[4], h[5], h[6], h[7], h[8]
			for i = 0, 63 do
				local S1 = bit.bxor(rrot(e, 6), rrot(e, 11), rrot(e, 25))
				local ch = bit.bxor(bit.band(e, f), bit.band(bit.bxor(e, 0xffffffff), g))
				local t1 = add(hh, S1, ch, K[i + 1], w[i])
				local S0 = bit.bxor(rrot(a, 2), rrot(a, 13), rrot(a, 22))
				local maj = bit.bxor(bit.band(a, b), bit.band(a, c), bit.band(b, c))
				hh, g, f, e, d, c, b, a = g, f, e, add(d, t1), c, b, a, add(t1, S0, maj)
			end
			h[1], h[2], h[3], h[4] = add(h[1], a), add(h[2], b), add(h[3], c), add(h[4], d)
			h[5], h[6], h[7], h[8] = add(h[5], e), add(h[6], f), add(h[7], g), add(h[8], hh)
		end
		local out = {}
		for i = 1, 8 do
			for j = 3, 0, -1 do
				out[#out + 1] = math.floor(h[i] / 2 ^ (8 * j)) % 256
			end
		end
		return out
	end

	function sha.hmac(key, msg)
		if #key > 64 then
			key = sha.digest(key)
		end
		local ipad, opad = {}, {}
		for i = 1, 64 do
			local k = key[i] or 0
			ipad[i], opad[i] = bit.bxor(k, 0x36), bit.bxor(k, 0x5c)
		end
		for i = 1, #msg do
			ipad[64 + i] = msg[i]
		end
		local inner = sha.digest(ipad)
		for i = 1, #inner do
			opad[64 + i] = inner[i]
		end
		return sha.digest(opad)
	end
end

-- AES-128 decryption (ECB, PKCS#7), as Fawkes encrypts the datagrams. The tables are
-- computed at load time from the field GF(2^8) with the polynomial 0x11b.
local aes = {}
do
	local exp, log = {}, {}
	local x = 1
	for i = 0, 254 do
		exp[i], log[x] = x, i
		local x2 = bit.lshift(x, 1)
		if x2 >= 256 then
			x2 = bit.bxor(x2, 0x11b)
		end
		x = bit.bxor(x, x2) -- times the generator 3
	end
	local function mul(a, b)
		if a == 0 or b == 0 then
			return 0
		end
		return exp[(log[a] + log[b]) % 255]
	end
	local function rotl8(b, n)
		return bit.band(bit.bor(bit.lshift(b, n), bit.rshift(b, 8 - n)), 0xff)
	end
	local sbox, inv = { [0] = 0x63 }, { [0x63] = 0 }
	for a = 1, 255 do
		local b = exp[(255 - log[a]) % 255]
		local s = bit.bxor(b, rotl8(b, 1), rotl8(b, 2), rotl8(b, 3), rotl8(b, 4), 0x63)
		sbox[a], inv[s] = s, a
	end
	local m9, m11, m13, m14 = {}, {}, {}, {}
	for a = 0, 255 do
		m9[a], m11[a], m13[a], m14[a] = mul(a, 9), mul(a, 11), mul(a, 13), mul(a, 14)
	end

	-- expand returns the 176 bytes of round keys of a 16-byte key (a Lua table from 0).
	function aes.expand(key)
		local w = {}
		for i = 0, 15 do
			w[i] = key[i]
		end
		local rcon = 1
		for i = 16, 175, 4 do
			local t0, t1, t2, t3 = w[i - 4], w[i - 3], w[i - 2], w[i - 1]
			if i % 16 == 0 then
				t0, t1, t2, t3 = bit.bxor(sbox[t1], rcon), sbox[t2], sbox[t3], sbox[t0]
				rcon = mul(rcon, 2)
			end
			w[i], w[i + 1] = bit.bxor(w[i - 16], t0), bit.bxor(w[i - 15], t1)
			w[i + 2], w[i + 3] = bit.bxor(w[i - 14], t2), bit.bxor(w[i - 13], t3)
		end
		return w
	end

	-- decrypt decrypts the 16 bytes of s (a table from 0) in place.
	function aes.decrypt(s, w)
		for i = 0, 15 do
			s[i] = bit.bxor(s[i], w[160 + i])
		end
		local t = {}
		for round = 9, 0, -1 do
			for c = 0, 3 do -- InvShiftRows and InvSubBytes
				for r = 0, 3 do
					t[r + 4 * ((c + r) % 4)] = inv[s[r + 4 * c]]
				end
			end
			for i = 0, 15 do
				s[i] = bit.bxor(t[i], w[16 * round + i])
			end
			if round > 0 then
				for c = 0, 12, 4 do -- InvMixColumns
					local a0, a1, a2, a3 = s[c], s[c + 1], s[c + 2], s[c + 3]
					s[c] = bit.bxor(m14[a0], m11[a1], m13[a2], m9[a3])
					s[c + 1] = bit.bxor(m9[a0], m14[a1], m11[a2], m13[a3])
					s[c + 2] = bit.bxor(m13[a0], m9[a1], m14[a2], m11[a3])
					s[c + 3] = bit.bxor(m11[a0], m13[a1], m9[a2], m14[a3])
				end
			end
		end
	end
end
