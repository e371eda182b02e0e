import { useEffect, useState } from 'react';
import { LOGIN_SLIDE_MS, LOGIN_SLIDES } from '@solar/shared';
import { advanceBackgroundIndex, nextSlide } from '../../../lib/login-background';
import './login-slider.css';

type Land = 'field' | 'hills' | 'roofs';

/** Landscape and clouds of each of the 17 slots; sky and sun come from `.login-slide-N` in the CSS. */
const SLIDES: readonly { land: Land; clouds: boolean }[] = [
  { land: 'field', clouds: false },
  { land: 'hills', clouds: false },
  { land: 'field', clouds: true },
  { land: 'roofs', clouds: false },
  { land: 'hills', clouds: false },
  { land: 'field', clouds: true },
  { land: 'roofs', clouds: false },
  { land: 'hills', clouds: false },
  { land: 'field', clouds: false },
  { land: 'roofs', clouds: true },
  { land: 'hills', clouds: false },
  { land: 'field', clouds: false },
  { land: 'hills', clouds: false },
  { land: 'roofs', clouds: true },
  { land: 'field', clouds: false },
  { land: 'roofs', clouds: true },
  { land: 'hills', clouds: false },
];

if (SLIDES.length !== LOGIN_SLIDES) throw new Error('login slides and LOGIN_SLIDES differ');

/**
 * Background of the login page: 17 slides crossfading every 5000 ms. Each visit advances the stored
 * background index (1..9) and the slider starts at that slide (docs/spec-differences.md keeps both figures).
 */
export function LoginSlider() {
  const [backgroundIndex] = useState(advanceBackgroundIndex);
  const [slide, setSlide] = useState(backgroundIndex - 1);

  useEffect(() => {
    const timer = window.setInterval(() => setSlide(nextSlide), LOGIN_SLIDE_MS);
    return () => window.clearInterval(timer);
  }, []);

  return (
    <div
      className="login-slider"
      aria-hidden="true"
      data-testid="login-slider"
      data-slide-index={slide}
      data-slide-count={SLIDES.length}
      data-background-index={backgroundIndex}
    >
      {SLIDES.map((s, i) => (
        <div key={i} className={`login-slide login-slide-${i + 1}${i === slide ? ' is-active' : ''}`}>
          {s.clouds && <div className="login-slide-clouds" />}
          <div className={`login-slide-land login-land-${s.land}`} />
          <div className="login-slide-tint" />
        </div>
      ))}
    </div>
  );
}
