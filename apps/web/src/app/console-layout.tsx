import { Suspense, useEffect, useMemo, useState } from 'react';
import { Outlet, useLocation, useMatches, useNavigate } from 'react-router';
import Avatar from 'antd/es/avatar';
import Button from 'antd/es/button';
import Drawer from 'antd/es/drawer';
import Dropdown from 'antd/es/dropdown';
import Layout from 'antd/es/layout';
import Menu from 'antd/es/menu';
import Space from 'antd/es/space';
import Typography from 'antd/es/typography';
import theme from 'antd/es/theme';
import LogoutOutlined from '@ant-design/icons/LogoutOutlined';
import MenuFoldOutlined from '@ant-design/icons/MenuFoldOutlined';
import MenuOutlined from '@ant-design/icons/MenuOutlined';
import MenuUnfoldOutlined from '@ant-design/icons/MenuUnfoldOutlined';
import UserOutlined from '@ant-design/icons/UserOutlined';
import { useTranslation } from 'react-i18next';
import { matchPath } from 'react-router';
import { MENU_WIDTH } from '@solar/shared';
import { SiteMark } from '../components/site-mark';
import { FullPageSpin } from '../components/full-page-spin';
import { LanguageSwitcher } from '../components/language-switcher';
import { LoadingOverlay } from '../components/loading-overlay';
import { ThemeToggle } from '../components/theme-toggle';
import { useSiteSettings } from '../features/admin';
import { AlarmBadge } from '../features/alarms';
import { applyDayjsLocale } from '../lib/dayjs-locale';
import { PHONE_QUERY, TABLET_QUERY, useMediaQuery } from '../lib/media-query';
import { usePreferences } from '../lib/preferences-store';
import { queryClient } from '../lib/query-client';
import { knownKey } from '../lib/i18n-keys';
import { menuRoutes, menuTestId } from '../lib/routes';
import { endSession } from '../lib/session';
import { useSession } from '../lib/session-store';
import { menuIcon } from './menu-icons';
import type { RouteHandle } from './route-handle';

const { Sider, Header, Content } = Layout;

function isRouteHandle(handle: unknown): handle is RouteHandle {
  return (
    typeof handle === 'object' && handle !== null && typeof (handle as RouteHandle).titleKey === 'string'
  );
}

/** Initials for the avatar (`Ayşe Yılmaz` → `AY`). */
function initials(name: string, surname: string): string {
  return `${name.trim().charAt(0)}${surname.trim().charAt(0)}`.toLocaleUpperCase() || '?';
}

/** The logged-in layout (spec §2): collapsible menu of permitted pages, header, content. */
export default function ConsoleLayout() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const matches = useMatches();
  const user = useSession((s) => s.user);
  // Null until the user toggles: the side menu then follows the width (collapsed on a portrait tablet).
  const [collapsedChoice, setCollapsedChoice] = useState<boolean | null>(null);
  const phone = useMediaQuery(PHONE_QUERY);
  const tablet = useMediaQuery(TABLET_QUERY);
  const collapsed = collapsedChoice ?? tablet;
  const [drawerOpen, setDrawerOpen] = useState(false);
  const { token } = theme.useToken();
  const locale = usePreferences((s) => s.locale);
  const { siteName, logoUrl } = useSiteSettings();

  const items = useMemo(() => menuRoutes(user?.permissions ?? []), [user]);
  const selected = items.find((r) => matchPath({ path: r.path, end: false }, location.pathname))?.path;
  const titleKey = [...matches].reverse().find((m) => isRouteHandle(m.handle))?.handle as
    RouteHandle | undefined;
  const title = titleKey ? t(knownKey(titleKey.titleKey, 'pages.notFound')) : '';

  useEffect(() => {
    void applyDayjsLocale(locale);
  }, [locale]);

  useEffect(() => {
    document.title = title ? `${title} · ${siteName}` : siteName;
  }, [title, siteName]);

  if (!user) return null;

  const menu = (
    <Menu
      theme="dark"
      mode="inline"
      data-testid="menu"
      selectedKeys={selected ? [selected] : []}
      onClick={({ key }) => {
        setDrawerOpen(false);
        void navigate(key);
      }}
      items={items.map((route) => ({
        key: route.path,
        icon: menuIcon(route.icon),
        label: t(route.titleKey),
        title: t(route.titleKey),
        'data-testid': menuTestId(route.path),
      }))}
    />
  );

  const onLogout = () => {
    void endSession().finally(() => {
      queryClient.clear();
      void navigate('/login', { replace: true });
    });
  };

  return (
    <Layout className="console-layout">
      {phone ? (
        <Drawer
          open={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          placement="left"
          size={MENU_WIDTH}
          closable={false}
          className="console-menu-drawer"
          data-testid="menu-drawer"
        >
          <div className="console-brand">
            <SiteMark logoUrl={logoUrl} size={30} />
            <span className="console-brand-name" data-testid="site-name">
              {siteName}
            </span>
          </div>
          {menu}
        </Drawer>
      ) : (
        <Sider
          width={MENU_WIDTH}
          collapsible
          collapsed={collapsed}
          trigger={null}
          className="console-sider"
          data-testid="sider"
          data-collapsed={collapsed}
        >
          <div className="console-brand">
            <SiteMark logoUrl={logoUrl} size={30} label={collapsed ? siteName : ''} />
            {!collapsed && (
              <span className="console-brand-name" data-testid="site-name">
                {siteName}
              </span>
            )}
          </div>
          {menu}
        </Sider>
      )}
      <Layout>
        <Header
          className="console-header"
          style={{ borderBottom: `1px solid ${token.colorBorderSecondary}` }}
        >
          <Space size={12} align="center" className="console-header-left">
            {phone ? (
              <>
                <Button
                  type="text"
                  icon={<MenuOutlined />}
                  onClick={() => setDrawerOpen(true)}
                  aria-label={t('layout.menu')}
                  aria-expanded={drawerOpen}
                  data-testid="menu-open"
                />
                {/* A phone has no side menu: the header carries the site's mark, named by the site name. */}
                <span className="console-header-mark" data-testid="header-mark">
                  <SiteMark logoUrl={logoUrl} size={26} maxWidth={80} label={siteName} />
                </span>
              </>
            ) : (
              <Button
                type="text"
                icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
                onClick={() => setCollapsedChoice(!collapsed)}
                aria-label={t(collapsed ? 'layout.expand' : 'layout.collapse')}
                data-testid="menu-toggle"
              />
            )}
            <Typography.Title level={4} className="console-title" data-testid="page-title">
              {title}
            </Typography.Title>
          </Space>
          <Space size={4} align="center" className="console-header-actions">
            <AlarmBadge />
            <ThemeToggle />
            <LanguageSwitcher />
            <Dropdown
              trigger={['click']}
              menu={{
                items: [
                  {
                    key: 'profile',
                    icon: <UserOutlined />,
                    label: t('layout.profile'),
                    'data-testid': 'profile-link',
                  },
                  { type: 'divider' },
                  {
                    key: 'logout',
                    icon: <LogoutOutlined />,
                    label: t('layout.logout'),
                    danger: true,
                    'data-testid': 'logout',
                  },
                ],
                onClick: ({ key }) => {
                  if (key === 'profile') void navigate(`/profile/${user.id}`);
                  if (key === 'logout') onLogout();
                },
              }}
            >
              <Button type="text" className="user-menu-button" data-testid="user-menu">
                <Avatar size={28} style={{ backgroundColor: token.colorPrimary }} aria-hidden>
                  {initials(user.name, user.surname)}
                </Avatar>
                <span className="user-menu-name">
                  {user.name} {user.surname}
                </span>
                {/* Named by its content, so the visible name is in the accessible one (WCAG 2.5.3). */}
                <span className="sr-only">{t('layout.userMenu')}</span>
              </Button>
            </Dropdown>
          </Space>
        </Header>
        <Content className="console-content">
          <Suspense fallback={<FullPageSpin />}>
            <Outlet />
          </Suspense>
          <LoadingOverlay />
        </Content>
      </Layout>
    </Layout>
  );
}
