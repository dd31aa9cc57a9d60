package units

import "math"

// CmPerMetre is the number of the messages' centimetres in a metre.
const CmPerMetre = 100

// Metres converts a length in centimetres to metres.
func Metres(cm float64) float64 { return cm / CmPerMetre }

// Centimetres converts a length in metres to centimetres.
func Centimetres(m float64) float64 { return m * CmPerMetre }

// Radians converts an angle in degrees to radians.
func Radians(deg float64) float64 { return deg * (math.Pi / 180) }

// Degrees converts an angle in radians to degrees.
func Degrees(rad float64) float64 { return rad * (180 / math.Pi) }
