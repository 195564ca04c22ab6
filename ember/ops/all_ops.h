#pragma once
// One include line per op family header.
